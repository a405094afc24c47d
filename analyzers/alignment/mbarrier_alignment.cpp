// ALN001 mbarrier-alignment
//
// What it does: reports an mbarrier object whose address is not 8-byte aligned — provably
// (the offset is wrong) or by declaration (it sits at a known offset inside a variable
// declared with less than 8-byte alignment) — and an mbarrier object in a state space other
// than shared memory. Every instruction that names an mbarrier is checked: `mbarrier.*`,
// `cp.async.mbarrier.arrive`, the completion barrier of `cp.async.bulk` and
// `cp.async.bulk.tensor`, and `tcgen05.commit`.
//
// Why is this bad: an mbarrier is a 64-bit object in shared memory and must be aligned to 8
// bytes. ptxas accepts a misaligned one; on an H100 `mbarrier.init` at a 4-byte-aligned
// address stops the kernel with cudaErrorMisalignedAddress (tests/gpu/RESULTS.md).
//
// Example:
//     .shared .align 4 .b8 storage[16];
//     mbarrier.init.shared::cta.b64 [storage+4], 1;
//
// Use instead:
//     .shared .align 8 .b64 bar;
//     mbarrier.init.shared::cta.b64 [bar], 1;
//
// Fix: declare the barrier as `.b64` (or give its buffer `.align 8`) and use an offset that
// is a multiple of 8.
//
// References: PTX ISA, mbarrier instructions ("Size and alignment of mbarrier object": 8
// bytes, 8-byte aligned); §6.4.1 (addresses must be aligned to the access size); CUDA C++
// Programming Guide, TMA alignment table (mbarrier address 8-byte aligned).
#include <string>

#include "AddressAlignment.h"

namespace ptx {
namespace {

// The operand naming the mbarrier in `view`, or none.
const InstructionOperand* mbarrierOperand(const RuleContext& context, const InstructionView& view, std::string_view opcode) {
  const Module& module = context.module;
  const InstructionSite& site = view.site;
  auto firstAddress = [&]() -> const InstructionOperand* {
    for (std::uint32_t i = 0; i < site.operandCount; ++i) {
      if (view.operand(module, i).shape == OperandShape::Address) return &view.operand(module, i);
    }
    return nullptr;
  };
  if (opcode == "mbarrier") {
    // pending_count reads a state, not the object.
    if (view.hasPrefix(".pending_count")) return nullptr;
    return firstAddress();
  }
  if (opcode == "cp" && view.has(".async") && view.has(".mbarrier") && view.has(".arrive")) return firstAddress();
  if (opcode == "cp" && view.has(".async") && view.has(".bulk") && view.hasPrefix(".mbarrier::")) {
    // [dst], [src or tensor map], (size,) [mbar], ...: the last address operand.
    for (std::uint32_t i = site.operandCount; i-- > 0;) {
      if (view.operand(module, i).shape == OperandShape::Address) return i >= 2 ? &view.operand(module, i) : nullptr;
    }
    return nullptr;
  }
  if (opcode == "tcgen05" && view.has(".commit")) return firstAddress();
  return nullptr;
}

}  // namespace

void checkMbarrierAlignment(const RuleContext& context) {
  const Module& module = context.module;
  for (std::uint32_t index = 0; index < module.instructions.size(); ++index) {
    const InstructionSite& site = module.instructions[index];
    if (site.inDamagedCode || site.isCall) continue;
    std::string_view opcode = context.textOf(site.opcode);
    if (opcode != "mbarrier" && opcode != "cp" && opcode != "tcgen05") continue;
    InstructionView view = viewOf(context, site);
    const InstructionOperand* address = mbarrierOperand(context, view, opcode);
    if (address == nullptr) continue;
    if (auto misaligned = misalignedAddress(context, index, *address, 8, Evidence::ProofOrDeclaration)) {
      std::move(*misaligned).report(context, "ALN001", address->range, concat({"mbarrier object must be 8-byte aligned: "}));
      continue;
    }
    // A barrier named directly in a space other than shared memory.
    if (address->symbol != kNoSymbol) {
      const Symbol& symbol = module.symbols[address->symbol];
      if (!symbol.isRegister() && (symbol.space == ".global" || symbol.space == ".local" || symbol.space == ".const" ||
                                   symbol.space == ".param")) {
        context.report("ALN001", Category::Alignment, address->range,
                       concat({"mbarrier object '", symbol.name, "' is in ", symbol.space,
                               " memory; mbarrier objects live in shared memory"}),
                       {declaredHere(context, address->symbol)});
      }
    }
  }
}

}  // namespace ptx

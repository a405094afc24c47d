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

// The operand naming the mbarrier in instruction `site`, or none.
const InstructionOperand* mbarrierOperand(const Module& module, const InstructionSite& site) {
  const InstructionFacts& facts = module.factsOf(site);
  auto operand = [&](std::uint32_t i) -> const InstructionOperand& { return module.operands[site.firstOperand + i]; };
  auto firstAddress = [&]() -> const InstructionOperand* {
    for (std::uint32_t i = 0; i < site.operandCount; ++i) {
      if (operand(i).shape == OperandShape::Address) return &operand(i);
    }
    return nullptr;
  };
  if (facts.is(Family::Mbarrier)) {
    // pending_count reads a state, not the object.
    if (facts.has(Modifier::PendingCount)) return nullptr;
    return firstAddress();
  }
  if (facts.is(Family::Cp) && facts.has(Modifier::Async) && facts.has(Modifier::Mbarrier) && facts.has(Modifier::Arrive)) {
    return firstAddress();
  }
  if (facts.is(Family::Cp) && facts.does(kCompletesOnMbarrier)) {
    // [dst], [src or tensor map], (size,) [mbar], ...: the last address operand.
    for (std::uint32_t i = site.operandCount; i-- > 0;) {
      if (operand(i).shape == OperandShape::Address) return i >= 2 ? &operand(i) : nullptr;
    }
    return nullptr;
  }
  if (facts.is(Family::Tcgen05) && facts.has(Modifier::Commit)) return firstAddress();
  return nullptr;
}

}  // namespace

void checkMbarrierAlignment(const RuleContext& context) {
  const Module& module = context.module;
  for (std::uint32_t index = 0; index < module.instructions.size(); ++index) {
    const InstructionSite& site = module.instructions[index];
    if (site.inDamagedCode || site.isCall) continue;
    const InstructionOperand* address = mbarrierOperand(module, site);
    if (address == nullptr) continue;
    if (auto misaligned = misalignedAddress(context, index, *address, 8, Evidence::ProofOrDeclaration)) {
      std::move(*misaligned).report(context, "ALN001", address->range, concat({"mbarrier object must be 8-byte aligned: "}));
      continue;
    }
    // A barrier named directly in a space other than shared memory.
    if (address->symbol != kNoSymbol) {
      const Symbol& symbol = module.symbols[address->symbol];
      Modifier space = symbol.spaceId;
      if (!symbol.isRegister() && (space == Modifier::Global || space == Modifier::Local || space == Modifier::Const ||
                                   space == Modifier::Param)) {
        context.report("ALN001", address->range,
                       concat({"mbarrier object '", symbol.name, "' is in ", symbol.space(),
                               " memory; mbarrier objects live in shared memory"}),
                       {declaredHere(context, address->symbol)});
      }
    }
  }
}

}  // namespace ptx

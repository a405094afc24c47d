// ALN002 bulk-copy-alignment
//
// What it does: checks the one-dimensional bulk copies — `cp.async.bulk`,
// `cp.reduce.async.bulk` and `cp.async.bulk.prefetch` without `.tensor` — for a source or
// destination address that is not 16-byte aligned and for a size that is not a multiple of
// 16 bytes, wherever the value analysis can prove it (constants, symbols with their declared
// alignment, and arithmetic on them).
//
// Why is this bad: the bulk-copy unit moves 16-byte granules. ptxas rejects a literal size
// that is not a multiple of 16, but not a size computed in a register, nor misaligned
// addresses. On an H100 a misaligned shared or global address stops the kernel with
// cudaErrorMisalignedAddress, and a 20-byte size held in a register silently copies 16
// bytes and never completes the barrier's transaction count: the waiting threads hang
// (tests/gpu/RESULTS.md).
//
// Example:
//     .shared .align 16 .b8 tile[256];
//     cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [tile+8], [%rd1], 64, [bar];
//
// Use instead:
//     cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [tile+16], [%rd1], 64, [bar];
//
// References: PTX ISA, cp.async.bulk (addresses and size aligned to 16 bytes);
// CUDA C++ Programming Guide, bulk asynchronous copy alignment table.
#include <string>

#include "AddressAlignment.h"

namespace ptx {

void checkBulkCopyAlignment(const RuleContext& context) {
  const Module& module = context.module;
  for (std::uint32_t index = 0; index < module.instructions.size(); ++index) {
    const InstructionSite& site = module.instructions[index];
    if (site.inDamagedCode || site.isCall) continue;
    const InstructionFacts& facts = module.factsOf(site);
    if (!facts.is(Family::Cp) || !facts.has(Modifier::Bulk) || facts.has(Modifier::Tensor)) continue;
    bool prefetch = facts.has(Modifier::Prefetch);
    if (!facts.has(Modifier::Async)) continue;
    // [dst], [src], size, ... (prefetch: [src], size).
    std::uint32_t addresses = prefetch ? 1 : 2;
    if (site.operandCount < addresses + 1) continue;
    for (std::uint32_t i = 0; i < addresses; ++i) {
      const InstructionOperand& address = module.operands[site.firstOperand + i];
      if (address.shape != OperandShape::Address) continue;
      if (auto misaligned = misalignedAddress(context, index, address, 16, Evidence::ProofOrDeclaration)) {
        std::move(*misaligned).report(context, "ALN002", address.range, concat({"bulk copy ", i == 0 && !prefetch ? "destination" : "source",
                               " must be 16-byte aligned: "}));
      }
    }
    const InstructionOperand& size = module.operands[site.firstOperand + addresses];
    flow::FunctionFlow* flow = context.flows.flowOfInstruction(index);
    if (flow == nullptr || size.shape == OperandShape::Address) continue;
    flow::AbstractValue value = flow->valueOf(index, size);
    if (!value.computed || !value.bits.provablyMisaligned(16)) continue;
    std::string message = "bulk copy size must be a multiple of 16 bytes: ";
    if (auto constant = value.constantValue()) {
      message += "it is ";
      message += std::to_string(*constant);
    } else {
      message += "'";
      message += context.textOf(size.range);
      message += "' is provably not";
    }
    context.report("ALN002", size.range, std::move(message));
  }
}

}  // namespace ptx

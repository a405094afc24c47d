// ALN003 tensor-copy-shared-alignment
//
// What it does: reports the shared-memory operand of a tensor copy
// (`cp.async.bulk.tensor`, `cp.reduce.async.bulk.tensor`) whose address is not 128-byte
// aligned: provably, or because it lies at a known offset in a buffer declared with less
// than 128-byte alignment.
//
// Why is this bad: the tensor memory accelerator writes and reads shared memory in 128-byte
// aligned boxes. ptxas accepts any address; on an H100 a destination only 16 or 64 bytes
// aligned stops the kernel with cudaErrorMisalignedAddress, while 128 bytes works
// (tests/gpu/RESULTS.md). Swizzled layouts need more (see SWZ001).
//
// Example:
//     .shared .align 64 .b8 tile[8192];
//     cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [tile], [tmap, {%r1, %r2}], [bar];
//
// Use instead:
//     .shared .align 128 .b8 tile[8192];
//
// References: PTX ISA §5.5 (tensors) and the cp.async.bulk.tensor instruction; CUDA C++
// Programming Guide, multi-dimensional TMA alignment table (shared address 128-byte
// aligned).
#include <string>

#include "AddressAlignment.h"

namespace ptx {

void checkTensorCopySharedAlignment(const RuleContext& context) {
  const Module& module = context.module;
  for (std::uint32_t index = 0; index < module.instructions.size(); ++index) {
    const InstructionSite& site = module.instructions[index];
    if (site.inDamagedCode || site.isCall || site.operandCount < 2) continue;
    const InstructionFacts& facts = module.factsOf(site);
    if (!facts.is(Family::Cp) || !facts.has(Modifier::Bulk) || !facts.has(Modifier::Tensor) ||
        facts.has(Modifier::Prefetch)) {
      continue;
    }
    // Loads (`.shared::cluster.global`) name the shared destination first; stores and
    // reductions (`.global.shared::cta`) name the tensor map first and the shared source second.
    bool toShared = facts.space == StateSpace::Shared || facts.space == StateSpace::SharedCluster;
    const InstructionOperand& shared = module.operands[site.firstOperand + (toShared ? 0 : 1)];
    if (shared.shape != OperandShape::Address) continue;
    if (auto misaligned = misalignedAddress(context, index, shared, 128, Evidence::ProofOrDeclaration)) {
      std::move(*misaligned).report(context, "ALN003", shared.range, concat({"tensor copy shared-memory ", toShared ? "destination" : "source",
                             " must be 128-byte aligned: "}));
    }
  }
}

}  // namespace ptx

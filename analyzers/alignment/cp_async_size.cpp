// ALN006 cp-async-size
//
// What it does: checks the non-bulk asynchronous copy `cp.async.ca/.cg.shared.global`: the
// copy size must be 4, 8 or 16 bytes, only 16 with `.cg`; a constant source size (the
// zero-fill form) must not exceed the copy size; and the shared destination and global
// source must be aligned to the copy size where the analysis can prove they are not.
//
// Why is this bad: the copy moves exactly cp-size bytes as one naturally aligned access;
// `.cg` bypasses L1 and exists only for 16-byte copies. ptxas rejects bad literal sizes but
// not misaligned addresses, which behave like any misaligned access (undefined; on Hopper a
// misaligned-address fault).
//
// Example:
//     cp.async.cg.shared.global [dst], [%rd1], 8;
//     cp.async.ca.shared.global [dst+4], [%rd1], 8;
//
// Use instead:
//     cp.async.ca.shared.global [dst], [%rd1], 8;
//     cp.async.ca.shared.global [dst+8], [%rd1], 8;
//
// References: PTX ISA, cp.async (cp-size is 4, 8 or 16; .cg only with 16; src-size at most
// cp-size); §6.4.1 (alignment).
#include <string>

#include "AddressAlignment.h"

namespace ptx {

void checkCpAsyncSize(const RuleContext& context) {
  const Module& module = context.module;
  for (std::uint32_t index = 0; index < module.instructions.size(); ++index) {
    const InstructionSite& site = module.instructions[index];
    if (site.inDamagedCode || site.isCall || site.operandCount < 3) continue;
    const InstructionFacts& facts = module.factsOf(site);
    if (!facts.is(Family::Cp) || !facts.has(Modifier::Async) || !facts.hasAny({Modifier::Ca, Modifier::Cg}) ||
        facts.has(Modifier::Bulk)) {
      continue;
    }
    flow::FunctionFlow* flow = context.flows.flowOfInstruction(index);
    if (flow == nullptr) continue;
    const InstructionOperand& sizeOperand = module.operands[site.firstOperand + 2];
    auto size = flow->valueOf(index, sizeOperand).constantValue();
    if (!size) continue;
    if (*size != 4 && *size != 8 && *size != 16) {
      context.report("ALN006", sizeOperand.range,
                     concat({"cp.async copies 4, 8 or 16 bytes, not ", std::to_string(*size)}));
      continue;
    }
    if (facts.has(Modifier::Cg) && *size != 16) {
      context.report("ALN006", sizeOperand.range,
                     concat({"cp.async.cg copies only 16 bytes, not ", std::to_string(*size), "; use .ca"}));
      continue;
    }
    if (site.operandCount >= 4) {
      const InstructionOperand& sourceSize = module.operands[site.firstOperand + 3];
      if (sourceSize.shape == OperandShape::IntegerLiteral || sourceSize.shape == OperandShape::Expression) {
        auto bytes = flow->valueOf(index, sourceSize).constantValue();
        if (bytes && *bytes > *size) {
          context.report("ALN006", sourceSize.range,
                         concat({"source size ", std::to_string(*bytes), " exceeds the copy size ", std::to_string(*size)}));
        }
      }
    }
    for (std::uint32_t i = 0; i < 2; ++i) {
      const InstructionOperand& address = module.operands[site.firstOperand + i];
      if (auto misaligned = misalignedAddress(context, index, address, *size, Evidence::Proof)) {
        std::move(*misaligned).report(context, "ALN006", address.range,
                                      concat({"a ", std::to_string(*size), "-byte cp.async needs a ", std::to_string(*size),
                                              "-byte aligned ", i == 0 ? "destination: " : "source: "}));
      }
    }
  }
}

}  // namespace ptx

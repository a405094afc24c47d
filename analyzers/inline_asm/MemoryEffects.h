// MemoryEffects: what the instructions of one asm statement do that the compiler must not
// drop or move, for the rules about `volatile` and the `"memory"` clobber (ASM009–ASM011).
#pragma once

#include "inline_asm/AsmRuleContext.h"

namespace ptx {

// The first instruction of the statement with any of `effects`, or UINT32_MAX.
inline std::uint32_t firstInstructionDoing(const AsmRuleContext& context, const CheckedStatement& checked, Effects effects) {
  if (checked.fragmentFunction == UINT32_MAX) return UINT32_MAX;
  const Module& module = context.fragmentLint.module;
  const FunctionInfo& function = module.functions[checked.fragmentFunction];
  for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i)
    if (module.factsOf(i).does(effects)) return i;
  return UINT32_MAX;
}

// Effects the program observes besides the outputs: stores, atomics, mbarrier arrivals,
// transaction counts and waits (a wait acquires), fences, barriers, asynchronous copies and their
// groups. Reading an mbarrier's pending count from a state is not one.
inline constexpr Effects kSideEffects = kWritesMemory | kAtomic | kMbarrierArrive | kMbarrierExpectTx | kMbarrierWait |
                                         kFence | kProxyFence |
                                         kCtaBarrier | kBarrierArrive | kClusterBarrier | kCompletesOnMbarrier |
                                         kCompletesInBulkGroup | kCompletesInAsyncGroup | kCommitsGroup | kWaitsForGroup |
                                         kTrap | kExit;

inline bool hasOutputs(const cuda::AsmStatement& statement) {
  for (const cuda::AsmOperand& operand : statement.operands)
    if (operand.isOutput) return true;
  return false;
}

}  // namespace ptx

// ASM011 volatile-without-memory-clobber
//
// What it does: reports a `volatile` asm statement that reads or writes memory, or fences,
// without a `"memory"` clobber. Off by default: turn it on with `"ASM011": "on"`.
//
// Why it can matter: `volatile` keeps the statement and its order among volatile statements,
// but without `"memory"` nvcc may move ordinary C++ loads and stores across it — a store the
// asm should publish may still sit in a register. It is off by default because it is the house
// style of CCCL and CUTLASS (over a thousand such statements, correct where the surrounding
// code needs no such ordering).
//
// Example:
//     data[i] = v;
//     asm volatile("fence.acq_rel.gpu;");
//
// Use instead:
//     asm volatile("fence.acq_rel.gpu;" ::: "memory");
//
// Fix: add `"memory"` to the clobbers.
//
// References: docs/inline-ptx.md §4.
#include "inline_asm/MemoryEffects.h"

namespace ptx {

void checkVolatileWithoutMemoryClobber(const AsmRuleContext& context) {
  const Module& module = context.fragmentLint.module;
  for (const CheckedStatement& checked : context.statements) {
    const cuda::AsmStatement& statement = *checked.statement;
    if (!statement.isVolatile || statement.memoryClobber) continue;
    std::uint32_t instruction = firstInstructionDoing(context, checked, kReadsMemory | kSideEffects);
    if (instruction == UINT32_MAX) continue;
    context.report("ASM011", statement.keyword,
                   concat({"volatile asm with '", context.fragmentTextOf(module.instructions[instruction].opcode),
                          "' has no \"memory\" clobber: nvcc may move ordinary loads and stores across it"}));
  }
}

}  // namespace ptx

// ASM009 pure-asm-with-side-effect
//
// What it does: reports an asm statement that is not `volatile`, has outputs, has no
// `"memory"` clobber, and whose template does something besides computing its outputs: a
// store, an atomic, an mbarrier operation, a fence or barrier, an asynchronous copy.
//
// Why is this bad: nvcc treats such a statement as a pure function of its inputs. It deletes
// it when the outputs are unused (an `mbarrier.arrive` whose state nobody reads is gone),
// merges two identical ones, and moves it across loops and other memory accesses.
//
// Example:
//     uint64_t state;
//     asm("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(bar));
//
// Use instead:
//     asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(bar) : "memory");
//
// Fix: add `volatile` (keeps the statement and its order among volatile statements) and a
// `"memory"` clobber (orders it against ordinary loads and stores).
//
// References: docs/inline-ptx.md §4 (optimization semantics); flashinfer#5125, vllm#2760.
#include "inline_asm/MemoryEffects.h"

namespace ptx {

void checkPureAsmWithSideEffect(const AsmRuleContext& context) {
  const Module& module = context.fragmentLint.module;
  for (const CheckedStatement& checked : context.statements) {
    const cuda::AsmStatement& statement = *checked.statement;
    if (statement.isVolatile || statement.memoryClobber || !hasOutputs(statement)) continue;
    std::uint32_t instruction = firstInstructionDoing(context, checked, kSideEffects);
    if (instruction == UINT32_MAX) continue;
    ByteRange opcode = module.instructions[instruction].opcode;
    context.report("ASM009", context.sourceOf(checked, opcode),
                   concat({"this asm has outputs and is not volatile, so nvcc treats it as a pure function and may delete "
                          "or move it, but '",
                          context.fragmentTextOf(opcode), "' has an effect besides its outputs; add 'volatile' and a "
                          "\"memory\" clobber"}),
                   {{statement.keyword, "the asm statement"}});
    context.attachFix("Make the asm statement volatile", {{{statement.keyword.end, statement.keyword.end}, " volatile"}}, true);
  }
}

}  // namespace ptx

// ASM012 opaque-template
//
// What it does: notes an asm statement whose template or constraints cannot be rebuilt from
// the file alone — a macro defined in another header, a stringized macro argument, a `"C"`
// operand — and which is therefore not checked.
//
// Why it matters: nothing is reported inside such a statement, so an information note says
// why, rather than letting silence read as "checked and clean".
//
// Example:
//     #define LOAD(type) asm volatile("ld.global." #type " %0, [%1];" : "=r"(v) : "l"(p))
//
// Fix: none needed. `ptxlint --nvcc` checks what nvcc really emits.
//
// References: docs/cuda.md (what is extracted and what is opaque).
#include "inline_asm/AsmRuleContext.h"

namespace ptx {

void checkOpaqueTemplate(const AsmRuleContext& context) {
  for (const CheckedStatement& checked : context.statements) {
    const cuda::AsmStatement& statement = *checked.statement;
    if (!statement.opaqueReason) continue;
    context.report("ASM012", statement.opaqueRange,
                   concat({"this asm statement is not checked: ", *statement.opaqueReason}));
  }
}

}  // namespace ptx

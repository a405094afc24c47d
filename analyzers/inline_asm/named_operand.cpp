// ASM002 named-operand
//
// What it does: reports a `%[name]` operand reference in an asm template.
//
// Why is this bad: GCC and clang accept symbolic operand names, but nvcc does not: it stops
// with an internal compiler error ("symbolic operand reference not supported!") when it emits
// the statement.
//
// Example:
//     asm("mov.u32 %[out], %[in];" : [out] "=r"(y) : [in] "r"(x));
//
// Use instead:
//     asm("mov.u32 %0, %1;" : "=r"(y) : "r"(x));
//
// Fix: refer to operands by number (outputs first, then inputs, in text order).
//
// References: docs/inline-ptx.md §1 (named operands).
#include "inline_asm/AsmRuleContext.h"

namespace ptx {

void checkNamedOperand(const AsmRuleContext& context) {
  for (const CheckedStatement& checked : context.statements) {
    for (const cuda::TemplateEscapeIssue& issue : checked.substituted.issues) {
      if (issue.kind != cuda::TemplateEscapeIssue::Kind::NamedOperand) continue;
      context.report("ASM002", AsmRuleContext::sourceOfTemplate(checked, issue.templateBegin, issue.templateEnd),
                     "nvcc does not support named operand references ('%[name]'); refer to the operand by number");
    }
  }
}

}  // namespace ptx

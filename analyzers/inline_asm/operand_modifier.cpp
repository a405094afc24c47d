// ASM003 operand-modifier
//
// What it does: reports a `%` followed by one letter and a digit (`%c0`, `%r1`) in the
// template of an asm statement that has operands.
//
// Why is this bad: GCC reads `%c0` as operand 0 with the `c` modifier; nvcc supports no
// operand modifier and stops with "Asm operand modifier not supported". Names of two or more
// letters (`%rd1`, `%laneid`, `%clock64`) are passed through as PTX names and are fine.
//
// Example:
//     asm("mov.u32 %0, %c1;" : "=r"(x) : "n"(4));
//
// Use instead:
//     asm("mov.u32 %0, %1;" : "=r"(x) : "n"(4));
//
// Fix: drop the modifier; for a PTX register of your own, give it a name of two or more
// letters, and write `%%` for a literal `%` in a statement with operands.
//
// References: docs/inline-ptx.md §3.
#include "inline_asm/AsmRuleContext.h"

namespace ptx {

void checkOperandModifier(const AsmRuleContext& context) {
  for (const CheckedStatement& checked : context.statements) {
    for (const cuda::TemplateEscapeIssue& issue : checked.substituted.issues) {
      if (issue.kind != cuda::TemplateEscapeIssue::Kind::OperandModifier) continue;
      ByteRange range = AsmRuleContext::sourceOfTemplate(checked, issue.templateBegin, issue.templateEnd);
      std::string_view spelling(checked.statement->templateText.data() + issue.templateBegin,
                                issue.templateEnd - issue.templateBegin);
      context.report("ASM003", range,
                     concat({"'", spelling, "' reads as operand ", spelling.substr(2), " with the '", spelling.substr(1, 1),
                            "' modifier, which nvcc does not support (\"Asm operand modifier not supported\")"}));
    }
  }
}

}  // namespace ptx

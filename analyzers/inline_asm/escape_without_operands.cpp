// ASM004 escape-without-operands
//
// What it does: reports `%%` and `%=` in the template of an asm statement that has no operands.
//
// Why is this bad: nvcc substitutes `%%` (a literal `%`) and `%=` (a number unique to each
// emitted copy) only in statements with at least one operand. Without operands the template
// reaches ptxas verbatim, and ptxas rejects `%%laneid` or `L%=` with a syntax error.
//
// Example:
//     asm volatile("mov.u32 %%r1, %%laneid;");
//
// Use instead:
//     asm volatile("{ .reg .u32 r1; mov.u32 r1, %laneid; }");
//
// Fix: write a single `%` in a statement without operands, or give the statement an operand.
//
// References: docs/inline-ptx.md §3 (the substitution table).
#include "inline_asm/AsmRuleContext.h"

namespace ptx {

void checkEscapeWithoutOperands(const AsmRuleContext& context) {
  // One finding per statement, at its first such escape: they share one cause and one fix.
  for (const CheckedStatement& checked : context.statements) {
    const cuda::TemplateEscapeIssue* first = nullptr;
    std::size_t count = 0;
    for (const cuda::TemplateEscapeIssue& issue : checked.substituted.issues) {
      if (issue.kind != cuda::TemplateEscapeIssue::Kind::EscapeWithoutOperands) continue;
      if (!first) first = &issue;
      ++count;
    }
    if (!first) continue;
    bool percent = checked.statement->templateText[first->templateBegin + 1] == '%';
    std::string more = count > 1 ? concat({" (", std::to_string(count - 1), " more in this statement)"}) : std::string();
    context.report("ASM004", AsmRuleContext::sourceOfTemplate(checked, first->templateBegin, first->templateEnd),
                   percent ? concat({"'%%' in an asm statement without operands reaches ptxas unchanged, which rejects it; "
                                     "write a single '%'", more})
                           : concat({"'%=' in an asm statement without operands reaches ptxas unchanged, which rejects it "
                                     "(nvcc numbers it only in statements with operands)", more}));
  }
}

}  // namespace ptx

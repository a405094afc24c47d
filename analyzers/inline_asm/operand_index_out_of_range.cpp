// ASM001 operand-index-out-of-range
//
// What it does: reports a `%N` in an asm template whose N is not less than the statement's
// number of operands (outputs and inputs together; a `"+r"` operand counts once), and a `%N`
// in an asm statement that has no operands at all.
//
// Why is this bad: with operands, nvcc stops with an internal compiler error when it emits the
// statement (only then: a template that is never instantiated compiles). Without operands, nvcc
// copies the template unchanged and ptxas rejects the undeclared `%0`.
//
// Example:
//     asm volatile("add.u32 %0, %1, %3;" : "=r"(sum) : "r"(a), "r"(b));   // operands: %0..%2
//
// Use instead:
//     asm volatile("add.u32 %0, %1, %2;" : "=r"(sum) : "r"(a), "r"(b));
//
// Fix: renumber the reference (operands are numbered outputs first, then inputs, in text
// order) or add the missing operand.
//
// References: docs/inline-ptx.md §3 (template processing); "Inline PTX Assembly in CUDA".
#include "inline_asm/AsmRuleContext.h"

namespace ptx {

void checkOperandIndexOutOfRange(const AsmRuleContext& context) {
  using Kind = cuda::TemplateEscapeIssue::Kind;
  for (const CheckedStatement& checked : context.statements) {
    std::size_t count = checked.statement->operands.size();
    for (const cuda::TemplateEscapeIssue& issue : checked.substituted.issues) {
      if (issue.kind != Kind::OperandOutOfRange) continue;
      ByteRange range = AsmRuleContext::sourceOfTemplate(checked, issue.templateBegin, issue.templateEnd);
      if (count == 0) {
        context.report("ASM001", range,
                       concat({"'%", std::to_string(issue.operandIndex),
                              "' in an asm statement without operands: nvcc copies it to ptxas, which rejects "
                              "the undeclared name"}));
      } else {
        context.report("ASM001", range,
                       concat({"operand '%", std::to_string(issue.operandIndex), "' does not exist: this asm has ",
                              std::to_string(count), count == 1 ? " operand (%0)" : " operands (%0 to %",
                              count == 1 ? "" : std::to_string(count - 1), count == 1 ? "" : ")",
                              "; nvcc stops with an internal compiler error"}));
      }
    }
  }
}

}  // namespace ptx

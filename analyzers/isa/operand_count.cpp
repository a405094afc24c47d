// ISA006 operand-count
//
// What it does: reports an instruction with fewer or more operands than its form takes.
//
// Why is this bad: ptxas stops with "Arguments mismatch for instruction 'x'".
//
// Example:
//     mad.lo.s32 %r1, %r2, %r3;      // mad takes d, a, b, c
//
// Use instead:
//     mad.lo.s32 %r1, %r2, %r3, %r4;
//
// References: the syntax block of each instruction in PTX ISA chapter 9.
#include "RuleContext.h"
#include "isa/InstructionShape.h"

namespace ptx {

void checkOperandCount(const RuleContext& context) {
  for (const ShapeFinding& finding : context.shapes.findings) {
    if (finding.problem == ShapeProblem::OperandCount) context.report("ISA006", finding.range, finding.message);
  }
}

}  // namespace ptx

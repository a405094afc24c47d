// ISA007 operand-kind
//
// What it does: reports an operand of the wrong kind: an address where a register is
// expected, a register where a label is expected, a constant as a destination, or a vector
// whose length differs from the .vN modifier.
//
// Why is this bad: ptxas stops with "Arguments mismatch for instruction 'x'", "Label expected
// for argument 0" or "Result register required".
//
// Example:
//     ld.global.u32 %r1, %rd1;       // the address needs brackets
//     bra.uni %r1;                    // bra takes a label
//
// Use instead:
//     ld.global.u32 %r1, [%rd1];
//     bra.uni $L_exit;
//
// References: PTX ISA §6.2 (operand kinds) and the syntax block of each instruction.
#include "RuleContext.h"
#include "isa/InstructionShape.h"

namespace ptx {

void checkOperandKind(const RuleContext& context) {
  for (const ShapeFinding& finding : context.shapes.findings) {
    if (finding.problem == ShapeProblem::OperandKind) context.report("ISA007", finding.range, finding.message);
  }
}

}  // namespace ptx

// ISA008 operand-type
//
// What it does: reports a register whose declared type does not fit the instruction type by
// the PTX operand type rules: the size must match; .sN/.uN instructions take .sN, .uN and
// .bN registers; .fN instructions take .fN and .bN registers; .bN instructions take any
// register of the size; ld, st and cvt may use wider integer registers (PTX ISA §6.4.1–6.4.2).
// Also an integer constant in a floating-point instruction, a floating-point constant in an
// integer one (a decimal one in a bit-size one), and a non-predicate register where a
// predicate is required.
//
// Why is this bad: ptxas stops with "Arguments mismatch for instruction 'x'".
//
// Example:
//     add.s32 %r1, %rd2, %r3;        // %rd2 is .b64
//     add.f32 %f1, %f2, 1;            // 1 is an integer constant
//
// Use instead:
//     cvt.u32.u64 %r2, %rd2;
//     add.s32 %r1, %r2, %r3;
//     add.f32 %f1, %f2, 0f3F800000;
//
// References: PTX ISA §6.4 "Operand Type Information".
#include "RuleContext.h"
#include "isa/InstructionShape.h"

namespace ptx {

void checkOperandType(const RuleContext& context) {
  for (const ShapeFinding& finding : context.shapes.findings) {
    if (finding.problem == ShapeProblem::OperandType) context.report("ISA008", finding.range, finding.message);
  }
}

}  // namespace ptx

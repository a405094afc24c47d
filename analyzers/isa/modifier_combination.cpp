// ISA005 invalid-modifier-combination
//
// What it does: reports an instruction whose modifiers are each valid for the family but fit
// none of its forms together: two alternatives of one group (two rounding modes, two state
// spaces), a required modifier left out (mul without .lo/.hi/.wide), or modifiers from
// different forms.
//
// Why is this bad: ptxas stops with "Multiple rounding modifiers specified" or "Unexpected
// instruction types specified for 'mul'".
//
// Example:
//     add.rn.rz.f32 %f1, %f2, %f3;
//     mul.s32 %r1, %r2, %r3;
//
// Use instead:
//     add.rn.f32 %f1, %f2, %f3;
//     mul.lo.s32 %r1, %r2, %r3;
//
// Note: ptxas accepts modifiers in any order, and so does this rule.
//
// References: the syntax block of each instruction in PTX ISA chapter 9.
#include "RuleContext.h"
#include "isa/InstructionShape.h"

namespace ptx {

void checkModifierCombination(const RuleContext& context) {
  for (const ShapeFinding& finding : context.shapes.findings) {
    if (finding.problem == ShapeProblem::InvalidCombination) context.report("ISA005", finding.range, finding.message);
  }
}

}  // namespace ptx

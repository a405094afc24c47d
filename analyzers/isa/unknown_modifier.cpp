// ISA004 unknown-modifier
//
// What it does: reports a dotted modifier that no form of the instruction family takes, and
// suggests the closest one the family does take.
//
// Why is this bad: ptxas stops with "Unknown modifier '.x'"; a misspelt modifier is never
// silently ignored.
//
// Example:
//     add.rnx.f32 %f1, %f2, %f3;     // .rnx is not a rounding mode
//     ld.globl.u32 %r1, [%rd1];
//
// Use instead:
//     add.rn.f32 %f1, %f2, %f3;
//     ld.global.u32 %r1, [%rd1];
//
// Fix: replace the modifier with the suggestion, when there is one.
//
// References: the syntax block of each instruction in PTX ISA chapter 9; the modifier
// vocabulary is the union of the forms in core/isa/instructions/*.def.
#include <string>

#include "RuleContext.h"
#include "isa/InstructionShape.h"

namespace ptx {

void checkUnknownModifier(const RuleContext& context) {
  for (const ShapeFinding& finding : context.shapes.findings) {
    if (finding.problem != ShapeProblem::UnknownModifier) continue;
    context.report("ISA004", finding.range, finding.message);
    if (!finding.suggestion.empty()) {
      context.attachFix(concat({"Replace '", context.textOf(finding.range), "' with '", finding.suggestion, "'"}),
                        {{finding.range, finding.suggestion}}, /*isPreferred=*/true);
    }
  }
}

}  // namespace ptx

// ASM008 input-written
//
// What it does: reports an input operand (listed after the second `:`, without `"+"`) that an
// instruction of the template writes.
//
// Why is this bad: nvcc assumes an asm statement leaves its inputs unchanged. It may give the
// register of a variable that is still live, or share one register between two inputs holding
// the same value; the write then silently corrupts the C++ variable or the other operand.
//
// Example:
//     asm("add.u32 %1, %1, 1;\n mov.u32 %0, %1;" : "=r"(out) : "r"(x));
//
// Use instead:
//     asm("add.u32 %0, %1, 1;" : "=r"(out) : "r"(x));
//
// Fix: write to an output operand or a register declared inside `{ }`; if the variable is
// meant to change, make it a read-write output (`"+r"`).
//
// References: docs/inline-ptx.md §6; NVIDIA/cutlass#1225.
#include <set>

#include "inline_asm/AsmRuleContext.h"

namespace ptx {

void checkInputWritten(const AsmRuleContext& context) {
  const Module& module = context.fragmentLint.module;
  for (const CheckedStatement& checked : context.statements) {
    if (checked.fragmentFunction == UINT32_MAX) continue;
    const FunctionInfo& function = module.functions[checked.fragmentFunction];
    std::set<std::uint32_t> reported;
    for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
      for (const auto& [symbol, range] : registerAccessesOf(module, i).writes) {
        std::optional<std::uint32_t> index = context.operandOfSymbol(checked, symbol);
        if (!index || !reported.insert(*index).second) continue;
        const cuda::AsmOperand& operand = checked.statement->operands[*index];
        if (operand.isOutput) continue;
        context.report("ASM008", context.operandReferenceIn(checked, *index, range),
                       concat({"input operand %", std::to_string(*index), " ('", operand.expressionText,
                              "') is written by the template; nvcc assumes inputs are unchanged, so this can corrupt "
                              "another value: write to an output or a register declared inside '{ }'"}),
                       {{AsmRuleContext::constraintLetter(checked, *index), "declared as an input here"}});
      }
    }
  }
}

}  // namespace ptx

// ASM007 output-read-before-write
//
// What it does: reports a write-only output operand (`"=r"`) that the template reads before
// any instruction writes it. The template must be straight-line code (no branches or labels),
// so "before" is certain.
//
// Why is this bad: for a `"="` operand nvcc hands the template a fresh register with no
// defined value; the read sees garbage, not the C++ variable's value.
//
// Example:
//     asm("add.u32 %0, %0, %1;" : "=r"(sum) : "r"(x));
//
// Use instead:
//     asm("add.u32 %0, %0, %1;" : "+r"(sum) : "r"(x));
//
// Fix: make the operand read-write (`"+r"`), or pass the initial value as an input and refer to
// that input.
//
// References: docs/inline-ptx.md §6 (operand-index mix-ups); NVIDIA/cccl#8402.
#include <set>

#include "inline_asm/AsmRuleContext.h"

namespace ptx {

void checkOutputReadBeforeWrite(const AsmRuleContext& context) {
  const Module& module = context.fragmentLint.module;
  for (const CheckedStatement& checked : context.statements) {
    if (checked.fragmentFunction == UINT32_MAX) continue;
    const FunctionInfo& function = module.functions[checked.fragmentFunction];
    if (function.bodyScope == kNoScope) continue;
    bool straight = module.scopes[function.bodyScope].labels.empty();
    for (std::uint32_t i = function.firstInstruction; straight && i < function.firstInstruction + function.instructionCount; ++i)
      straight = !module.factsOf(i).does(kBranch | kIndirectBranch | kCall);
    if (!straight) continue;
    std::set<std::uint32_t> written, reported;
    for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
      RegisterAccesses accesses = registerAccessesOf(module, i);
      for (const auto& [symbol, range] : accesses.reads) {
        std::optional<std::uint32_t> index = context.operandOfSymbol(checked, symbol);
        if (!index || written.contains(*index) || reported.contains(*index)) continue;
        const cuda::AsmOperand& operand = checked.statement->operands[*index];
        if (!operand.isOutput || operand.readWrite) continue;
        reported.insert(*index);
        context.report("ASM007", context.operandReferenceIn(checked, *index, range),
                       concat({"output operand %", std::to_string(*index), " ('", operand.constraintText,
                              "') is read before the template writes it: it holds no defined value here; use '+",
                              std::string(1, operand.letter), "' to pass '", operand.expressionText, "' in"}),
                       {{AsmRuleContext::constraintLetter(checked, *index), "declared write-only here"}});
      }
      for (const auto& write : accesses.writes)
        if (auto index = context.operandOfSymbol(checked, write.first)) written.insert(*index);
    }
  }
}

}  // namespace ptx

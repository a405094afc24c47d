#include "sync/SharedOperands.h"

#include <vector>

namespace ptx::sync {

std::set<SymbolId> sharedSymbolsFeeding(const RuleContext& context, flow::FunctionFlow& flow, std::uint32_t instruction,
                                        const InstructionOperand& operand) {
  const Module& module = context.module;
  std::set<SymbolId> symbols;
  auto isShared = [&](SymbolId symbol) {
    if (symbol == kNoSymbol) return false;
    StateSpace space = module.symbols[symbol].stateSpace();
    return space == StateSpace::Shared || space == StateSpace::SharedCluster;
  };
  std::vector<std::pair<std::uint32_t, InstructionOperand>> work{{instruction, operand}};
  std::set<std::uint32_t> seen;  // Definitions visited.
  constexpr std::size_t kBudget = 64;
  while (!work.empty() && seen.size() < kBudget) {
    auto [at, current] = work.back();
    work.pop_back();
    if (current.shape == OperandShape::Symbol) {
      if (isShared(current.symbol)) symbols.insert(current.symbol);
      continue;
    }
    if (current.shape == OperandShape::Address) {
      flow::AbstractValue value = flow.addressOf(at, current);
      if (isShared(value.base)) symbols.insert(value.base);
      continue;
    }
    auto reg = flow.registerOf(current);
    if (!reg) continue;
    for (std::uint32_t d : flow.reachingDefinitions(at, *reg)) {
      if (!seen.insert(d).second) continue;
      flow::AbstractValue value = flow.valueOfDefinition(d);
      if (isShared(value.base)) {
        symbols.insert(value.base);
        continue;
      }
      const flow::Definition& definition = flow.definitions()[d];
      const InstructionSite& site = module.instructions[definition.instruction];
      if (site.isCall) continue;
      const InstructionFacts& facts = module.factsOf(site);
      // A loaded value: not followed.
      if (facts.is(Family::Ld) || facts.is(Family::Ldu) || facts.is(Family::Atom)) continue;
      for (std::uint32_t o = site.firstOperand; o < site.firstOperand + site.operandCount; ++o) {
        if (o == definition.operand) continue;
        work.push_back({definition.instruction, module.operands[o]});
      }
    }
  }
  return symbols;
}

std::vector<std::uint32_t> wgmmaDescriptorOperands(const RuleContext& context, const InstructionSite& site) {
  // wgmma.mma_async... d, a-desc | {a-regs}, b-desc, ...
  std::vector<std::uint32_t> descriptors;
  if (site.operandCount < 3 || !context.module.factsOf(site).does(kWarpgroupMma)) return descriptors;
  for (std::uint32_t k = 1; k <= 2; ++k) {
    const InstructionOperand& operand = context.module.operands[site.firstOperand + k];
    if (operand.shape == OperandShape::Register) descriptors.push_back(site.firstOperand + k);
  }
  return descriptors;
}

}  // namespace ptx::sync

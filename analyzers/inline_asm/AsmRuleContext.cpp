// AsmRuleContext: mapping synthesized-module positions and symbols back to the asm statement.
#include "inline_asm/AsmRuleContext.h"

#include <algorithm>
#include <cctype>

namespace ptx {

ByteRange AsmRuleContext::sourceOf(const CheckedStatement& checked, ByteRange fragmentRange) const {
  const cuda::FragmentModule::Entry* entry = checked.entry;
  const cuda::AsmStatement& statement = *checked.statement;
  if (!entry || statement.templateText.empty()) return statement.templateRange;
  std::uint32_t begin = std::clamp(fragmentRange.begin, entry->bodyBegin, entry->bodyEnd) - entry->bodyBegin;
  std::uint32_t end = std::clamp(fragmentRange.end, entry->bodyBegin, entry->bodyEnd) - entry->bodyBegin;
  auto [templateBegin, templateEnd] = entry->substituted.templateRangeOf(begin, end);
  ByteRange source = statement.sourceOfTemplate(templateBegin, templateEnd);
  if (templateEnd == templateBegin) source.end = source.begin;
  return source;
}

ByteRange AsmRuleContext::operandReferenceIn(const CheckedStatement& checked, std::uint32_t index, ByteRange within) const {
  if (checked.entry) {
    for (const cuda::OperandReference& reference : checked.substituted.references) {
      std::uint32_t begin = checked.entry->bodyBegin + reference.ptxBegin;
      if (reference.operand == index && begin >= within.begin && begin < within.end)
        return AsmRuleContext::sourceOfTemplate(checked, reference.templateBegin, reference.templateEnd);
    }
  }
  return sourceOf(checked, within);
}

std::optional<std::uint32_t> AsmRuleContext::operandOfSymbol(const CheckedStatement& checked, SymbolId symbol) const {
  if (!checked.entry || symbol == kNoSymbol) return std::nullopt;
  const Symbol& declared = fragmentLint.module.symbols[symbol];
  // The pipeline declares operand registers between the function's `{` and the template.
  if (declared.kind != SymbolKind::Register || declared.declarationRange.begin >= checked.entry->bodyBegin) return std::nullopt;
  const cuda::FragmentModule::Entry* entry = fragments.entryAt(checked.entry->bodyBegin);
  if (entry != checked.entry) return std::nullopt;
  std::string_view name = declared.name;
  if (name.size() < 2 || name[0] != '%') return std::nullopt;
  std::uint32_t index = 0;
  for (char c : name.substr(1)) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    index = index * 10 + static_cast<std::uint32_t>(c - '0');
  }
  if (index >= checked.statement->operands.size()) return std::nullopt;
  // Only this statement's own declarations: they follow the previous function's end.
  const FunctionInfo& function = fragmentLint.module.functions[checked.fragmentFunction];
  if (function.bodyScope == kNoScope || declared.scope != function.bodyScope) return std::nullopt;
  return index;
}

RegisterAccesses registerAccessesOf(const Module& module, std::uint32_t instruction) {
  RegisterAccesses accesses;
  const InstructionSite& site = module.instructions[instruction];
  const InstructionFacts& facts = module.factsOf(site);
  bool hasDestination = !facts.does(kNoDestination) && !facts.does(kBranch) && !facts.does(kCall);
  if (site.guardSymbol != kNoSymbol) accesses.reads.emplace_back(site.guardSymbol, site.guard);
  for (std::uint32_t k = 0; k < site.operandCount; ++k) {
    const InstructionOperand& operand = module.operands[site.firstOperand + k];
    bool writes = hasDestination && k == 0;
    auto& list = writes ? accesses.writes : accesses.reads;
    switch (operand.shape) {
      case OperandShape::Register:
      case OperandShape::NegatedPredicate:
        if (operand.symbol != kNoSymbol) (operand.shape == OperandShape::NegatedPredicate ? accesses.reads : list).emplace_back(operand.symbol, operand.range);
        break;
      case OperandShape::Address:
        if (operand.symbol != kNoSymbol) accesses.reads.emplace_back(operand.symbol, operand.range);
        break;
      case OperandShape::Vector:
      case OperandShape::PredicatePair:
        for (std::uint32_t e = 0; e < operand.elementCount; ++e) {
          const InstructionOperand& element = module.operands[operand.firstElement + e];
          if (element.symbol != kNoSymbol && element.shape == OperandShape::Register) list.emplace_back(element.symbol, element.range);
        }
        break;
      default:
        break;
    }
  }
  return accesses;
}

}  // namespace ptx

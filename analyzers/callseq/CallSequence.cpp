// CallSequence: shared helpers of the call-sequence rules (see CallSequence.h).
#include "CallSequence.h"

#include <string>

namespace ptx {

bool isCallParamVariable(const Module& module, SymbolId id) {
  if (id == kNoSymbol || id >= module.symbols.size()) return false;
  const Symbol& symbol = module.symbols[id];
  return symbol.kind == SymbolKind::Variable && symbol.spaceId == Modifier::Param && symbol.scope != 0 &&
         symbol.scope != kNoScope;
}

ParamTransfer paramTransferOf(const RuleContext& context, const InstructionSite& site) {
  ParamTransfer transfer;
  if (site.isCall || site.inDamagedCode) return transfer;
  const Module& module = context.module;
  const InstructionFacts& facts = module.factsOf(site);
  bool store = facts.is(Family::St);
  if (!store && !facts.is(Family::Ld)) return transfer;
  // `.param`, and the `.param::func` spelling of PTX 8.x.
  bool param = facts.space == StateSpace::Param;
  std::uint32_t address = store ? 0 : 1;
  if (!param || site.operandCount <= address) return transfer;
  const InstructionOperand& operand = module.operands[site.firstOperand + address];
  if (operand.shape != OperandShape::Address || !isCallParamVariable(module, operand.symbol)) return transfer;
  transfer.kind = store ? ParamTransferKind::Store : ParamTransferKind::Load;
  transfer.variable = operand.symbol;
  transfer.addressOperand = address;
  return transfer;
}

std::string describeCall(const RuleContext& context, const InstructionSite& call) {
  const Module& module = context.module;
  if (call.callee != kNoSymbol && call.callee < module.symbols.size() &&
      module.symbols[call.callee].kind == SymbolKind::Function) {
    return concat({"the call to '", context.textOf(call.calleeRange), "'"});
  }
  return "the indirect call";
}

}  // namespace ptx

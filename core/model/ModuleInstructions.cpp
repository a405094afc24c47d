// ModuleInstructions: the Builder's instruction walk — each instruction site with its
// modifiers and the shape of each operand (register, special register, symbol, literal,
// address with its tuple, vector, sink, `p|q` pair, `!p`), and every name used in it resolved
// or, for labels, deferred to the end of the function.
#include "model/ModuleBuilder.h"

#include <algorithm>

#include "syntax/TreeWalk.h"

namespace ptx::modelbuild {

// One pass over the statement's children (they come in order: guard, opcode, modifiers,
// operands): resolves every name in it and records the site with its modifiers and the
// shape of each operand.
void Builder::instruction(TSNode node, ScopeId scope, bool damaged, std::vector<PendingLabel>& pending) {
  TSNode opcode{};
  std::string_view op;
  bool isCall = ts_node_symbol(node) == k_.callInstruction;
  TSNode guard{};
  SymbolId guardSymbol = kNoSymbol;
  TSNode callee{};
  SymbolId calleeSymbol = kNoSymbol;
  TSNode callTargets{};
  std::uint32_t callReturnCount = 0;
  auto firstModifier = static_cast<std::uint32_t>(module_.modifiers.size());
  operandNodes_.clear();
  operandSymbols_.clear();
  // `@ bra L;` reads as guard `bra`, opcode `L`: SYN008 reports it; names in it are noise.
  auto opcodeIsDamaged = [](std::string_view spelled) {
    return spelled.empty() || !((spelled[0] >= 'a' && spelled[0] <= 'z') || (spelled[0] >= 'A' && spelled[0] <= 'Z'));
  };
  forEachChild(node, [&](TSNode part, TSFieldId field) {
    if (field == f_.opcode) {
      opcode = part;
      op = textOf(part);
      if (opcodeIsDamaged(op)) damaged = true;
      return;
    }
    if (field == f_.modifier) {
      module_.modifiers.push_back(rangeOf(part));
      return;
    }
    if (field == f_.operand && !isCall) {
      operandNodes_.push_back(part);
      operandSymbols_.emplace_back();
    }
    if (isCall && (field == f_.returns || field == f_.arguments)) {
      forEachChild(part, [&](TSNode value, TSFieldId valueField) {
        if (valueField != f_.value && valueField != f_.argument) return;
        operandNodes_.push_back(value);
        operandSymbols_.emplace_back();
        if (field == f_.returns) ++callReturnCount;
      });
    }
    if (field == f_.guard) {
      // The guard comes first; whether the statement is damaged depends on the opcode after
      // it, read ahead so that the guard's reference is recorded in source order (the
      // references then need no sorting).
      guard = part;
      TSNode ahead = child(node, f_.opcode);
      bool guardDamaged = damaged || (!ts_node_is_null(ahead) && opcodeIsDamaged(textOf(ahead)));
      TSNode predicate = child(guard, f_.predicate);
      if (!ts_node_is_null(predicate)) guardSymbol = use(predicate, scope, ReferenceRole::Guard, guardDamaged);
    } else if (field == f_.callee) {
      // A direct call names a function; an indirect one a register holding its address.
      calleeSymbol = lookup(textOf(part), scope);
      addReference(part, calleeSymbol, ReferenceRole::Callee, damaged);
      callee = part;
    } else if (field == f_.targets) {
      callTargets = part;
      deferLabel(part, scope, ReferenceRole::Operand, damaged, pending, true);
    } else if (ts_node_symbol(part) == k_.identifier) {
      // A name resolves now; one that does not is a label used before its definition (or
      // undeclared), looked up when the function ends. A branch's unresolved names are its
      // targets (`brx.idx %r1, $table`: the index is a register declared earlier).
      std::string_view name = textOf(part);
      SymbolId declared = lookup(name, scope);
      // An operand's shape needs the same lookup.
      if (!operandNodes_.empty() && operandNodes_.back().id == part.id) operandSymbols_.back() = declared;
      if (declared != kNoSymbol) {
        addReference(part, declared, ReferenceRole::Operand, damaged);
      } else if (Family family = familyNamed(op); family == Family::Bra || family == Family::Brx) {
        deferLabel(part, scope, ReferenceRole::BranchTarget, damaged, pending, false);
      } else if (isPredefinedName(name)) {
        addReference(part, kNoSymbol, ReferenceRole::Operand, damaged);
      } else {
        deferLabel(part, scope, ReferenceRole::Operand, damaged, pending, false);
      }
    } else {
      collectUses(part, scope, ReferenceRole::Operand, damaged, &pending);
    }
  });
  if (op.empty()) {
    module_.modifiers.resize(firstModifier);
    return;
  }
  InstructionSite site;
  site.opcode = rangeOf(opcode);
  site.statement = rangeOf(node);
  site.inDamagedCode = damaged;
  site.isCall = isCall;
  site.scope = scope;
  if (!ts_node_is_null(guard)) {
    site.guard = rangeOf(guard);
    site.guardNegated = !ts_node_is_null(child(guard, f_.negated));
    site.guardSymbol = guardSymbol;
  }
  if (isCall) {
    site.callReturnCount = callReturnCount;
    if (!ts_node_is_null(callee)) {
      site.calleeRange = rangeOf(callee);
      site.callee = calleeSymbol;
    }
    if (!ts_node_is_null(callTargets)) site.callTargets = rangeOf(callTargets);
  }
  site.firstModifier = firstModifier;
  site.modifierCount = static_cast<std::uint32_t>(module_.modifiers.size()) - firstModifier;
  site.firstOperand = static_cast<std::uint32_t>(module_.operands.size());
  site.operandCount = static_cast<std::uint32_t>(operandNodes_.size());
  module_.operands.resize(module_.operands.size() + operandNodes_.size());
  for (std::size_t i = 0; i < operandNodes_.size(); ++i) {
    InstructionOperand shaped = shapeOf(operandNodes_[i], scope, operandSymbols_[i]);
    module_.operands[site.firstOperand + i] = shaped;
  }
  module_.instructions.push_back(site);
}

InstructionOperand Builder::shapeOf(TSNode node, ScopeId scope, std::optional<SymbolId> resolved) {
  InstructionOperand operand;
  operand.range = rangeOf(node);
  TSSymbol symbol = ts_node_symbol(node);
  if (symbol == k_.identifier) {
    std::string_view name = textOf(node);
    operand.symbol = resolved ? *resolved : lookup(name, scope);
    if (operand.symbol == kNoSymbol) {
      operand.shape = isPredefinedName(name) ? OperandShape::SpecialRegister : OperandShape::UnresolvedName;
    } else {
      operand.shape = symbolOf(operand.symbol).isRegister() ? OperandShape::Register : OperandShape::Symbol;
    }
  } else if (symbol == k_.componentExpression) {
    // %tid.x; a register's vector component (%v.x) also lands here.
    TSNode base = child(node, f_.operand);
    std::string_view name = ts_node_is_null(base) ? "" : textOf(base);
    operand.shape = isPredefinedName(name) ? OperandShape::SpecialRegister : OperandShape::Expression;
  } else if (symbol == k_.integerLiteral) {
    operand.shape = OperandShape::IntegerLiteral;
  } else if (symbol == k_.floatLiteral || symbol == k_.hexFloatLiteral) {
    operand.shape = OperandShape::FloatLiteral;
  } else if (symbol == k_.address) {
    operand.shape = OperandShape::Address;
    TSNode offset = child(node, f_.offset);
    if (!ts_node_is_null(offset)) operand.offset = rangeOf(offset);
    TSNode base = child(node, f_.base);
    if (!ts_node_is_null(base) && ts_node_symbol(base) == k_.identifier) {
      operand.symbol = lookup(textOf(base), scope);
    }
    appendTupleElements(node, scope, operand);
  } else if (symbol == k_.sink) {
    operand.shape = OperandShape::Sink;
  } else if (symbol == k_.vectorOperand) {
    operand.shape = OperandShape::Vector;
    appendElements(node, f_.element, scope, operand);
  } else if (symbol == k_.binaryExpression) {
    TSNode op = child(node, f_.operatorToken);
    if (!ts_node_is_null(op) && textOf(op) == "|") {
      TSNode left = child(node, f_.left);
      TSNode right = child(node, f_.right);
      auto nameOrSink = [&](TSNode side) {
        return !ts_node_is_null(side) && (ts_node_symbol(side) == k_.identifier || ts_node_symbol(side) == k_.sink);
      };
      if (nameOrSink(left) && nameOrSink(right)) {
        // `p|q`, `p|_` (setp), `d|p`, `_|p` (elect, match); `a|b` of constants is an
        // ordinary expression.
        InstructionOperand first = shapeOf(left, scope);
        InstructionOperand second = shapeOf(right, scope);
        bool registerOrSink[2] = {first.shape == OperandShape::Register || first.shape == OperandShape::Sink,
                                  second.shape == OperandShape::Register || second.shape == OperandShape::Sink};
        if (registerOrSink[0] && registerOrSink[1]) {
          operand.shape = OperandShape::PredicatePair;
          operand.firstElement = static_cast<std::uint32_t>(module_.operands.size());
          operand.elementCount = 2;
          module_.operands.push_back(first);
          module_.operands.push_back(second);
        }
      }
    }
  } else if (symbol == k_.unaryExpression) {
    TSNode op = child(node, f_.operatorToken);
    TSNode inner = child(node, f_.operand);
    // `-1`, `+2.5`: a signed literal is still a literal of its kind.
    if (!ts_node_is_null(op) && !ts_node_is_null(inner) && (textOf(op) == "-" || textOf(op) == "+")) {
      TSSymbol innerSymbol = ts_node_symbol(inner);
      if (innerSymbol == k_.integerLiteral) operand.shape = OperandShape::IntegerLiteral;
      if (innerSymbol == k_.floatLiteral) operand.shape = OperandShape::FloatLiteral;
    }
    if (!ts_node_is_null(op) && textOf(op) == "!" && !ts_node_is_null(inner) &&
        ts_node_symbol(inner) == k_.identifier) {
      SymbolId target = lookup(textOf(inner), scope);
      if (target != kNoSymbol && symbolOf(target).isRegister()) {
        operand.shape = OperandShape::NegatedPredicate;
        operand.symbol = target;
      }
    }
  }
  return operand;
}

// A texture/surface address's tuple, vectors flattened (see InstructionOperand).
void Builder::appendTupleElements(TSNode address, ScopeId scope, InstructionOperand& operand) {
  std::vector<TSNode> elements;
  forEachChild(address, [&](TSNode part, TSFieldId partField) {
    if (partField != f_.element) return;
    if (ts_node_symbol(part) == k_.vectorOperand) {
      forEachChild(part, [&](TSNode inner, TSFieldId innerField) {
        if (innerField == f_.element) elements.push_back(inner);
      });
    } else {
      elements.push_back(part);
    }
  });
  if (elements.empty()) return;
  std::vector<InstructionOperand> shaped;
  for (TSNode element : elements) shaped.push_back(shapeOf(element, scope));
  operand.firstTupleElement = static_cast<std::uint32_t>(module_.operands.size());
  operand.tupleElementCount = static_cast<std::uint32_t>(shaped.size());
  module_.operands.insert(module_.operands.end(), shaped.begin(), shaped.end());
}

void Builder::appendElements(TSNode node, TSFieldId field, ScopeId scope, InstructionOperand& operand) {
  std::vector<TSNode> elements;
  forEachChild(node, [&](TSNode part, TSFieldId partField) {
    if (partField == field) elements.push_back(part);
  });
  operand.firstElement = static_cast<std::uint32_t>(module_.operands.size());
  operand.elementCount = static_cast<std::uint32_t>(elements.size());
  module_.operands.resize(module_.operands.size() + elements.size());
  for (std::size_t i = 0; i < elements.size(); ++i) {
    InstructionOperand element = shapeOf(elements[i], scope);
    module_.operands[operand.firstElement + i] = element;
  }
}

// Visits every identifier in `node` and below as a use, in source order. Iteratively: a
// constant expression may nest as deep as the text is long (`1+1+1+...`).
void Builder::collectUses(TSNode node, ScopeId scope, ReferenceRole role, bool damaged,
                 std::vector<PendingLabel>* pending) {
  if (declarationsOnly_) return;  // Uses declare nothing.
  std::vector<std::pair<TSNode, TSFieldId>>& stack = usesStack_;
  stack.clear();
  stack.emplace_back(node, 0);
  while (!stack.empty()) {
    auto [current, field] = stack.back();
    stack.pop_back();
    TSSymbol symbol = ts_node_symbol(current);
    if (symbol == k_.identifier) {
      // Opaque-type initializers name fields and enum values (`filter_mode = nearest`), not
      // symbols.
      if (field == f_.field) continue;
      std::string_view name = textOf(current);
      SymbolId target = lookup(name, scope);
      if (target == kNoSymbol && pending != nullptr && !isPredefinedName(name)) {
        // Possibly a label used as data (e.g. a `brx.idx` table name).
        deferLabel(current, scope, role, damaged, *pending, false);
      } else {
        addReference(current, target, role, damaged);
      }
      continue;
    }
    if (symbol == k_.fieldInitializer) continue;
    // Children are pushed in reverse so that they are visited in source order.
    std::size_t first = stack.size();
    forEachChild(current, [&](TSNode child, TSFieldId childField) { stack.emplace_back(child, childField); });
    std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(first), stack.end());
  }
}

SymbolId Builder::use(TSNode node, ScopeId scope, ReferenceRole role, bool damaged) {
  if (ts_node_symbol(node) != k_.identifier) {
    collectUses(node, scope, role, damaged);
    return kNoSymbol;
  }
  SymbolId target = lookup(textOf(node), scope);
  addReference(node, target, role, damaged);
  return target;
}

std::size_t Builder::addReference(TSNode node, SymbolId target, ReferenceRole role, bool damaged) {
  Reference reference;
  reference.range = rangeOf(node);
  reference.target = target;
  reference.role = role;
  reference.inDamagedCode = damaged || ts_node_is_missing(node);
  reference.predefined = target == kNoSymbol && isPredefinedName(textOf(node));
  module_.references.push_back(reference);
  return module_.references.size() - 1;
}

void Builder::deferLabel(TSNode node, ScopeId scope, ReferenceRole role, bool damaged,
                std::vector<PendingLabel>& pending, bool functionsToo) {
  std::size_t index = addReference(node, kNoSymbol, role, damaged);
  if (functionsToo) {
    // `.calltargets` and call prototypes may also name functions or registers.
    SymbolId direct = lookup(textOf(node), scope);
    if (direct != kNoSymbol) {
      module_.references[index].target = direct;
      return;
    }
  }
  pending.push_back({index, scope});
}

}  // namespace ptx::modelbuild

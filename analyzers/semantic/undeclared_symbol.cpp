// SEM001 undeclared-symbol
//
// What it does: reports a register, variable or parameter that is used without a visible
// declaration: not declared in the block, an enclosing block, the function's parameters or
// the module, or only declared later in the file.
//
// Why is this bad: ptxas stops with "Unknown symbol"; a name used before its `.reg` line is
// rejected too ("Label expected for forward reference").
//
// Example:
//     .reg .b32 %r<2>;
//     mov.b32 %r5, 1;        // %r<2> declares only %r0 and %r1
//
// Use instead:
//     .reg .b32 %r<6>;
//     mov.b32 %r5, 1;
//
// Fixes: change the name to the suggestion when that symbol is visible at the use; widen a
// visible `%r<N>` range that the name falls just outside of; declare a `%` register at the
// top of the function body, typed from the instruction when the form says what it takes.
//
// References: PTX ISA §5.4 (variables), §5.4.6 (parameterized names), §4.4 (special registers).
#include <algorithm>
#include <charconv>
#include <optional>
#include <string>

#include "isa/InstructionForms.h"
#include "isa/IsaReference.h"
#include "syntax/SyntaxKinds.h"

#include "RuleContext.h"

namespace ptx {
namespace {

// A symbol that `spelled` would resolve to at `offset`: declared earlier in an enclosing scope.
bool visibleAt(const Module& module, const Symbol& symbol, ScopeId scope, std::uint32_t offset) {
  return symbol.kind != SymbolKind::Label && symbol.nameRange.begin < offset && scopeEncloses(module, symbol.scope, scope);
}

// The index of `spelled` past a range's prefix (`%r12` after `%r` → 12), when it is one.
std::optional<std::uint32_t> indexAfterPrefix(std::string_view spelled, std::string_view prefix) {
  if (spelled.size() <= prefix.size() || !spelled.starts_with(prefix)) return std::nullopt;
  std::string_view digits = spelled.substr(prefix.size());
  if (digits.size() > 1 && digits[0] == '0') return std::nullopt;
  std::uint32_t index = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  if (error != std::errc() || end != digits.data() + digits.size() || index == UINT32_MAX) return std::nullopt;
  return index;
}

// `%r<2>` used as `%r5`: grow the visible range to `%r<6>`, unless that would swallow another
// name of its scope.
void attachWidenRange(const RuleContext& context, std::string_view name, ScopeId scope, std::uint32_t offset,
                      bool& attachedPreferred) {
  const Module& module = context.module;
  for (ScopeId s = scope; s != kNoScope; s = module.scopes[s].parent) {
    for (SymbolId id : module.scopes[s].symbols) {
      const Symbol& range = module.symbols[id];
      if (range.rangeCount == 0 || !range.isRegister() || range.nameRange.begin >= offset) continue;
      auto index = indexAfterPrefix(name, range.name);
      if (!index || *index < range.rangeCount) continue;
      std::uint32_t wider = *index + 1;
      bool swallows = false;
      for (SymbolId otherId : module.scopes[s].symbols) {
        const Symbol& other = module.symbols[otherId];
        if (other.rangeCount != 0) continue;
        std::uint32_t otherIndex = indexAfterPrefix(other.name, range.name).value_or(UINT32_MAX);
        swallows = swallows || (otherIndex >= range.rangeCount && otherIndex < wider);
      }
      if (swallows) continue;
      // The count sits between `<` and `>` right after the prefix.
      std::string_view after = context.text.substr(range.nameRange.end);
      std::size_t open = after.find_first_not_of(" \t");
      if (open == std::string_view::npos || after[open] != '<') continue;
      std::size_t digits = after.find_first_not_of(" \t", open + 1);
      if (digits == std::string_view::npos) continue;
      std::size_t digitsEnd = after.find_first_not_of("0123456789", digits);
      if (digitsEnd == std::string_view::npos || digitsEnd == digits) continue;
      ByteRange count{range.nameRange.end + static_cast<std::uint32_t>(digits), range.nameRange.end + static_cast<std::uint32_t>(digitsEnd)};
      std::string title =
          concat({"Widen '", range.name, "<", context.textOf(count), ">' to '", range.name, "<", std::to_string(wider), ">'"});
      context.attachFix(std::move(title), {{count, std::to_string(wider)}}, !attachedPreferred);
      attachedPreferred = true;
      return;
    }
  }
}

// The register type that fits an instruction type: the type itself for the common integer and
// float types, the bit type of its size for the others (a .bN register fits any type of size
// N), and 32 bits for byte types, which only ld, st and cvt take (and they take wider ones).
std::string registerTypeFor(std::string_view type) {
  Modifier modifier = modifierNamed(type);
  const ModifierInfo& meaning = infoOf(modifier);
  bool integer = meaning.typeClass == TypeClass::Unsigned || meaning.typeClass == TypeClass::Signed ||
                 meaning.typeClass == TypeClass::Bits;
  if (meaning.typeClass == TypeClass::Predicate || (integer && meaning.typeBytes >= 2) || modifier == Modifier::F32 ||
      modifier == Modifier::F64) {
    return std::string(type);
  }
  if (integer && meaning.typeBytes == 1) {
    Modifier wide = meaning.typeClass == TypeClass::Unsigned ? Modifier::U32
                    : meaning.typeClass == TypeClass::Signed ? Modifier::S32
                                                             : Modifier::B32;
    return std::string(spellingOf(wide));
  }
  const TypeInfo* info = findType(type);
  if (info == nullptr) return {};
  switch (info->sizeBits) {
    case 16: return std::string(spellingOf(Modifier::B16));
    case 32: return std::string(spellingOf(Modifier::B32));
    case 64: return std::string(spellingOf(Modifier::B64));
    case 128: return std::string(spellingOf(Modifier::B128));
    default: return {};
  }
}

// The type an operand position takes in a matched form, spelled with the dot; empty when
// the form leaves it open.
std::string formOperandType(const OperandSpec& spec, const FormMatch& match) {
  switch (spec.typeRule) {
    case OperandTypeRule::None: return {};
    case OperandTypeRule::Fixed: return spec.fixedType;
    case OperandTypeRule::Element:
    case OperandTypeRule::Wide: {
      if (spec.typeIndex >= match.types.size() || match.types[spec.typeIndex].empty()) return {};
      std::string type(match.types[spec.typeIndex]);
      if (spec.typeRule == OperandTypeRule::Element) return type;
      const TypeInfo* info = findType(type);
      if (info == nullptr || type.size() < 2) return {};
      return concat({".", type.substr(1, 1), std::to_string(info->sizeBits * 2)});
    }
  }
  return {};
}

bool predicateOnly(const OperandSpec& spec) {
  return (spec.kinds & (kOperandRegister | kOperandValuePredicatePair)) == 0 &&
         (spec.kinds & (kOperandPredicate | kOperandNegatedPredicate | kOperandPredicatePair)) != 0;
}

// The register type a use needs, from its instruction: `.pred` for guards and predicate
// operands, the address size for an address base, else what the instruction's form says.
std::string inferredRegisterType(const RuleContext& context, const Reference& reference) {
  const std::string predicate(spellingOf(Modifier::Pred));
  if (reference.role == ReferenceRole::Guard) return predicate;
  const Module& module = context.module;
  auto site = std::upper_bound(module.instructions.begin(), module.instructions.end(), reference.range.begin,
                               [](std::uint32_t at, const InstructionSite& s) { return at < s.statement.begin; });
  if (site == module.instructions.begin()) return {};
  --site;
  if (reference.range.end > site->statement.end || site->isCall) return {};
  auto index = static_cast<std::size_t>(site - module.instructions.begin());
  auto holds = [&](const InstructionOperand& operand) {
    return operand.range.begin <= reference.range.begin && reference.range.end <= operand.range.end;
  };
  for (std::uint32_t i = 0; i < site->operandCount; ++i) {
    const InstructionOperand& operand = module.operands[site->firstOperand + i];
    if (!holds(operand)) continue;
    if (operand.shape == OperandShape::Address) {
      // Only the base of `[base+offset]` is a register that holds an address.
      if (reference.range.begin != operand.range.begin + 1) return {};
      return std::string(spellingOf(module.header.addressSize == 32 ? Modifier::U32 : Modifier::U64));
    }
    // The element of a vector or predicate pair that holds the name.
    std::optional<std::uint32_t> element;
    for (std::uint32_t e = 0; e < operand.elementCount; ++e) {
      if (holds(module.operands[operand.firstElement + e])) element = e;
    }
    for (const FormMatch& match : context.shapes.matchesOf(index)) {
      const auto& specs = match.form->operands;
      if (site->operandCount > specs.size()) continue;
      bool shifted = std::any_of(specs.begin(), specs.begin() + i, [](const OperandSpec& spec) { return spec.optional; });
      if (shifted && site->operandCount != specs.size()) continue;
      const OperandSpec& spec = specs[i];
      if ((spec.kinds & kOperandAny) != 0) return {};
      bool valuePair = (spec.kinds & kOperandValuePredicatePair) != 0 && (spec.kinds & kOperandPredicatePair) == 0;
      if (predicateOnly(spec) || (operand.shape == OperandShape::PredicatePair && (!valuePair || element == 1u))) {
        return predicate;
      }
      return registerTypeFor(formOperandType(spec, match));
    }
    return {};
  }
  return {};
}

// The function definition whose body holds `offset`.
const FunctionInfo* enclosingFunction(const Module& module, std::uint32_t offset) {
  for (const FunctionInfo& function : module.functions) {
    if (function.bodyScope == kNoScope) continue;
    ByteRange range = module.scopes[function.bodyScope].range;
    if (range.begin <= offset && offset < range.end) return &function;
  }
  return nullptr;
}

// Where a declaration goes at the top of the function body: on its own line after `{`,
// indented like the line that follows, or just after `{` when code shares its line.
std::optional<FixEdit> declarationAtBodyTop(const RuleContext& context, const FunctionInfo& function, std::string declaration) {
  TSNode root = context.tree.root();
  if (ts_node_is_null(root)) return std::nullopt;
  const SyntaxKinds& kinds = syntaxKinds();
  ByteRange scope = context.module.scopes[function.bodyScope].range;
  TSNode node = ts_node_descendant_for_byte_range(root, scope.begin, scope.end);
  while (!ts_node_is_null(node) && ts_node_symbol(node) != kinds.functionDefinition) node = ts_node_parent(node);
  if (ts_node_is_null(node)) return std::nullopt;
  TSNode body = ts_node_child_by_field_id(node, kinds.fields.body);
  if (ts_node_is_null(body)) return std::nullopt;
  std::uint32_t brace = ts_node_start_byte(body);
  std::string_view text = context.text;
  if (brace >= text.size() || text[brace] != '{') return std::nullopt;
  std::size_t lineEnd = text.find('\n', brace);
  std::string_view restOfLine = text.substr(brace + 1, lineEnd == std::string_view::npos ? std::string_view::npos : lineEnd - brace - 1);
  std::size_t code = restOfLine.find_first_not_of(" \t\r");
  bool lineIsFree = code == std::string_view::npos || restOfLine.substr(code).starts_with("//");
  if (!lineIsFree || lineEnd == std::string_view::npos) {
    return FixEdit{{brace + 1, brace + 1}, concat({" ", declaration})};
  }
  std::size_t next = lineEnd + 1;
  std::size_t indentEnd = std::min(text.find_first_not_of(" \t", next), text.size());
  std::string indent(text.substr(next, indentEnd - next));
  if (indentEnd < text.size() && text[indentEnd] == '}') indent += '\t';  // An empty body.
  auto at = static_cast<std::uint32_t>(next);
  return FixEdit{{at, at}, indent + declaration + "\n"};
}

// `.reg .b32 %x;` at the top of the function body, when nothing there declares the name yet.
void attachDeclareRegister(const RuleContext& context, const Reference& reference, std::string_view name,
                           bool& attachedPreferred) {
  if (!name.starts_with('%') || name.size() < 2) return;
  const Module& module = context.module;
  const FunctionInfo* function = enclosingFunction(module, reference.range.begin);
  if (function == nullptr) return;
  // A later declaration in the body's own scope would become a duplicate.
  for (SymbolId id : module.scopes[function->bodyScope].symbols) {
    if (module.symbols[id].matches(name)) return;
  }
  std::string type = inferredRegisterType(context, reference);
  if (type.empty()) return;
  std::string declaration = concat({".reg ", type, " ", name, ";"});
  auto edit = declarationAtBodyTop(context, *function, declaration);
  if (!edit) return;
  context.attachFix(concat({"Declare '", declaration, "' at the top of the function"}), {std::move(*edit)}, !attachedPreferred);
  attachedPreferred = true;
}

}  // namespace

void checkUndeclaredSymbol(const RuleContext& context) {
  const Module& module = context.module;
  for (const Reference& reference : module.references) {
    if (reference.target != kNoSymbol || reference.predefined || reference.inDamagedCode) continue;
    if (reference.role == ReferenceRole::BranchTarget || reference.role == ReferenceRole::Callee) {
      continue;  // SEM003 and SEM004 phrase those.
    }
    std::string_view name = context.textOf(reference.range);
    std::string message = "use of undeclared identifier '" + std::string(name) + "'";
    // Candidates: module-level names and names of the same function (a register of another
    // function could never be meant; and a finding must depend only on its own body and the
    // module's declarations, which incremental re-analysis relies on).
    const FunctionInfo* function = enclosingFunction(module, reference.range.begin);
    ByteRange body = function != nullptr ? module.scopes[function->bodyScope].range : ByteRange{0, 0};
    std::vector<std::string_view> candidates;
    for (const Symbol& symbol : module.symbols) {
      if (symbol.kind == SymbolKind::Label || symbol.rangeCount != 0) continue;
      bool sameFunction = symbol.nameRange.begin >= body.begin && symbol.nameRange.end <= body.end;
      if (symbol.scope == 0 || sameFunction) candidates.push_back(symbol.name);
    }
    std::string_view suggestion = closestMatch(name, candidates);
    if (!suggestion.empty()) message += "; did you mean '" + std::string(suggestion) + "'?";
    context.report("SEM001", reference.range, std::move(message));

    // The fixes, the most likely intent first: a range just too short, then a typo, then a
    // missing declaration.
    ScopeId scope = innermostScopeAt(module, reference.range.begin);
    bool attachedPreferred = false;
    attachWidenRange(context, name, scope, reference.range.begin, attachedPreferred);
    if (!suggestion.empty()) {
      bool visible = std::any_of(module.symbols.begin(), module.symbols.end(), [&](const Symbol& symbol) {
        return symbol.name == suggestion && visibleAt(module, symbol, scope, reference.range.begin);
      });
      if (visible) {
        context.attachFix(concat({"Change to '", suggestion, "'"}), {{reference.range, std::string(suggestion)}},
                          !attachedPreferred);
        attachedPreferred = true;
      }
    }
    attachDeclareRegister(context, reference, name, attachedPreferred);
  }
}

}  // namespace ptx

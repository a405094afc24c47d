// AbiFacts: shared facts of the [abi] rules (see AbiFacts.h).
#include "abi/AbiFacts.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "syntax/SyntaxKinds.h"
#include "syntax/TreeWalk.h"

namespace ptx::abi {

std::optional<TypeInfo> typeInfo(Modifier type) {
  const ModifierInfo& info = infoOf(type);
  auto bits = static_cast<std::uint32_t>(info.typeBytes) * 8;
  switch (info.typeClass) {
    case TypeClass::Predicate: return TypeInfo{TypeKind::Predicate, 1};
    case TypeClass::Bits: return TypeInfo{TypeKind::Bits, bits};
    case TypeClass::Unsigned: return TypeInfo{TypeKind::Unsigned, bits};
    case TypeClass::Signed: return TypeInfo{TypeKind::Signed, bits};
    default: break;
  }
  if (type == Modifier::F16 || type == Modifier::F32 || type == Modifier::F64) return TypeInfo{TypeKind::Float, bits};
  // Packed and alternate formats: sized, but of no kind another type mixes with.
  static constexpr std::pair<Modifier, std::uint32_t> kOther[] = {
      {Modifier::F16x2, 32},  {Modifier::Bf16, 16},   {Modifier::Bf16x2, 32}, {Modifier::Tf32, 32},
      {Modifier::E4m3, 8},    {Modifier::E5m2, 8},    {Modifier::E4m3x2, 16}, {Modifier::E5m2x2, 16},
      {Modifier::F32x2, 64},  {Modifier::U16x2, 32},  {Modifier::S16x2, 32}};
  for (auto [other, otherBits] : kOther) {
    if (type == other) return TypeInfo{TypeKind::Other, otherBits};
  }
  return std::nullopt;
}

bool compatibleTypes(Modifier a, Modifier b) {
  if (a == b) return true;
  auto left = typeInfo(a);
  auto right = typeInfo(b);
  if (!left || !right) return true;  // Unknown: nothing to say.
  if (left->bits != right->bits) return false;
  if (left->kind == TypeKind::Bits || right->kind == TypeKind::Bits) return true;
  auto integer = [](TypeKind kind) { return kind == TypeKind::Unsigned || kind == TypeKind::Signed; };
  if (integer(left->kind) && integer(right->kind)) return true;
  return left->kind == right->kind && left->kind != TypeKind::Other;
}

std::string declaredTypeOf(const Symbol& symbol) {
  if (symbol.vectorWidth == 0) return symbol.type;
  Modifier vector = symbol.vectorWidth == 2 ? Modifier::V2 : symbol.vectorWidth == 4 ? Modifier::V4 : Modifier::V8;
  return concat({spellingOf(vector), " ", symbol.type});
}

std::optional<std::uint64_t> ParamShape::elementBytes() const {
  auto info = typeInfo(typeId);
  if (!info || info->bits < 8) return std::nullopt;
  return std::uint64_t{info->bits / 8} * (vectorWidth == 0 ? 1 : vectorWidth);
}

std::optional<std::uint64_t> ParamShape::byteSize() const {
  auto element = elementBytes();
  if (!element) return std::nullopt;
  if (!isArray) return element;
  if (unsized || !elementCount) return std::nullopt;
  return *element * *elementCount;
}

std::optional<std::uint64_t> ParamShape::effectiveAlignment() const {
  if (alignWritten) return alignment;
  return elementBytes();
}

std::optional<std::uint64_t> ParamShape::bitWidth() const {
  auto info = typeInfo(typeId);
  if (!info) return std::nullopt;
  return std::uint64_t{info->bits} * (vectorWidth == 0 ? 1 : vectorWidth);
}

namespace {

std::string_view textOf(const RuleContext& context, TSNode node) { return context.textOf(rangeOf(node)); }

std::optional<std::uint64_t> literal(const RuleContext& context, TSNode node) {
  if (ts_node_is_null(node)) return std::nullopt;
  return parseIntegerLiteral(textOf(context, node));
}

// Reads the declarator (name and dimensions) into `shape`.
void readDeclarator(const RuleContext& context, TSNode declarator, ParamShape& shape) {
  const SyntaxFields& f = syntaxKinds().fields;
  bool countKnown = true;
  std::uint64_t count = 1;
  forEachChild(declarator, [&](TSNode part, TSFieldId field) {
    if (field == f.name) {
      shape.name = textOf(context, part);
      shape.nameRange = rangeOf(part);
    } else if (field == f.dimension) {
      shape.isArray = true;
      TSNode size = ts_node_child_by_field_id(part, f.size);
      if (ts_node_is_null(size)) {
        shape.unsized = true;
        countKnown = false;
        return;
      }
      auto value = literal(context, size);
      if (!value) {
        countKnown = false;
        return;
      }
      if (*value == 0) shape.hasZeroDimension = true;
      count *= *value;
    }
  });
  if (shape.isArray && countKnown) shape.elementCount = count;
}

// Reads a `parameter` or `variable_declaration` node; `declarator` picks one of a
// declaration's declarators (the first when null).
ParamShape readDeclaration(const RuleContext& context, TSNode node, TSNode declarator) {
  const SyntaxFields& f = syntaxKinds().fields;
  ParamShape shape;
  shape.declaration = rangeOf(node);
  forEachChild(node, [&](TSNode part, TSFieldId field) {
    if (field == f.space) {
      shape.space = textOf(context, part);
      shape.spaceId = modifierNamed(shape.space);
    } else if (field == f.type) {
      shape.type = textOf(context, part);
      shape.typeId = modifierNamed(shape.type);
      shape.typeRange = rangeOf(part);
    } else if (field == f.vector) {
      shape.vectorWidth = infoOf(modifierNamed(textOf(context, part))).vectorWidth;
    } else if (field == f.align) {
      TSNode value = ts_node_child_by_field_id(part, f.value);
      shape.alignWritten = true;
      shape.alignment = literal(context, value);
      shape.alignValue = ts_node_is_null(value) ? rangeOf(part) : rangeOf(value);
    } else if (field == f.ptr) {
      shape.isPointer = true;
      shape.ptrClause = rangeOf(part);
      TSNode space = ts_node_child_by_field_id(part, f.space);
      if (!ts_node_is_null(space)) {
        shape.ptrSpace = textOf(context, space);
        shape.ptrSpaceId = modifierNamed(shape.ptrSpace);
        shape.ptrSpaceRange = rangeOf(space);
      }
      TSNode align = ts_node_child_by_field_id(part, f.align);
      if (!ts_node_is_null(align)) {
        TSNode value = ts_node_child_by_field_id(align, f.value);
        shape.ptrAlignWritten = true;
        shape.ptrAlignment = literal(context, value);
        shape.ptrAlignValue = ts_node_is_null(value) ? rangeOf(align) : rangeOf(value);
      }
    } else if (field == f.declarator && ts_node_is_null(declarator)) {
      declarator = part;
    }
  });
  if (!ts_node_is_null(declarator)) readDeclarator(context, declarator, shape);
  return shape;
}

std::vector<ParamShape> readParameterList(const RuleContext& context, TSNode list) {
  std::vector<ParamShape> shapes;
  if (ts_node_is_null(list)) return shapes;
  const SyntaxKinds& kinds = syntaxKinds();
  forEachChild(list, [&](TSNode part, TSFieldId) {
    if (ts_node_symbol(part) == kinds.parameter) shapes.push_back(readDeclaration(context, part, TSNode{}));
  });
  return shapes;
}

// The path pathTo found last in one lint task (FlowCache::moduleResultOf keeps one per task,
// so no two threads share it). A rule asks about declarations in source order, so the next
// path mostly begins with the last one: the descent restarts from the deepest node the two
// have in common instead of from the root, 30 levels up in a chunked function body.
struct LastTreePath {
  mutable std::vector<TSNode> nodes;
};

// The nodes from the root down to the smallest one holding `range` (the node
// ts_node_descendant_for_byte_range gives), found with a cursor. Walking up from that node with ts_node_parent instead costs, in
// tree-sitter 0.20, a scan of every visible child on each level: a function of 20,000
// statements made each parameter's lookup a scan of the whole function.
std::vector<TSNode> pathTo(const RuleContext& context, ByteRange range) {
  TSNode root = context.tree.root();
  if (ts_node_is_null(root)) return {};
  std::vector<TSNode>& last = context.flows.moduleResultOf<LastTreePath>([](LastTreePath&) {}).nodes;
  // The descent from the root passes a node of the last path when the node starts before
  // the range and ends at or after it: no sibling before it can then reach the range's start
  // (siblings do not overlap), so the cursor picks it again. A node starting exactly at the
  // range may lose to a zero-width or adjacent sibling; the descent redoes that level.
  std::size_t kept = !last.empty() && ts_node_eq(last.front(), root) ? 1 : 0;
  while (kept > 0 && kept < last.size() && ts_node_start_byte(last[kept]) < range.begin &&
         ts_node_end_byte(last[kept]) >= range.end) {
    ++kept;
  }
  last.resize(kept);
  if (last.empty()) last.push_back(root);
  TSTreeCursor cursor = ts_tree_cursor_new(last.back());
  while (ts_tree_cursor_goto_first_child_for_byte(&cursor, range.begin) >= 0) {
    TSNode child = ts_tree_cursor_current_node(&cursor);
    // The first child ending after range.begin; a zero-width range at a child's end may
    // belong to the next one, as ts_node_descendant_for_byte_range finds it.
    while (ts_node_start_byte(child) <= range.begin && ts_node_end_byte(child) < range.end &&
           ts_tree_cursor_goto_next_sibling(&cursor)) {
      child = ts_tree_cursor_current_node(&cursor);
    }
    if (ts_node_start_byte(child) > range.begin || ts_node_end_byte(child) < range.end) break;
    last.push_back(child);
  }
  ts_tree_cursor_delete(&cursor);
  return last;
}

// Reads a function declaration or `.callprototype` node. Only the parameter lists must be
// free of syntax errors: a call's findings may not depend on the callee's body (incremental
// re-analysis re-checks only the edited body).
std::optional<Signature> readSignature(const RuleContext& context, TSNode node, ByteRange name) {
  if (ts_node_is_null(node)) return std::nullopt;
  const SyntaxFields& f = syntaxKinds().fields;
  TSNode returns = ts_node_child_by_field_id(node, f.returns);
  TSNode parameters = ts_node_child_by_field_id(node, f.parameters);
  for (TSNode list : {returns, parameters}) {
    if (!ts_node_is_null(list) && ts_node_has_error(list)) return std::nullopt;
  }
  Signature signature;
  signature.name = name;
  signature.declaration = name;
  signature.returns = readParameterList(context, returns);
  signature.parameters = readParameterList(context, parameters);
  return signature;
}

std::optional<Signature> signatureOfPrototypeLabel(const RuleContext& context, SymbolId label) {
  const Symbol& symbol = context.module.symbols[label];
  const SyntaxKinds& kinds = syntaxKinds();
  std::vector<TSNode> path = pathTo(context, symbol.nameRange);
  auto labelNode = std::find_if(path.rbegin(), path.rend(), [&](TSNode node) { return ts_node_symbol(node) == kinds.label; });
  if (labelNode == path.rend()) return std::nullopt;
  TSNode node = *labelNode;
  TSNode next = ts_node_next_named_sibling(node);
  while (!ts_node_is_null(next) && ts_node_is_extra(next)) next = ts_node_next_named_sibling(next);
  if (ts_node_is_null(next) || ts_node_symbol(next) != kinds.callprototypeDirective) return std::nullopt;
  return readSignature(context, next, symbol.nameRange);
}

}  // namespace

std::optional<ParamShape> shapeOfSymbol(const RuleContext& context, SymbolId id) {
  if (id == kNoSymbol || id >= context.module.symbols.size()) return std::nullopt;
  const Symbol& symbol = context.module.symbols[id];
  const SyntaxKinds& kinds = syntaxKinds();
  // The innermost declaration around the name, and its child on the way to the name.
  std::vector<TSNode> path = pathTo(context, symbol.nameRange);
  std::size_t at = path.size();
  while (at > 0 && ts_node_symbol(path[at - 1]) != kinds.parameter &&
         ts_node_symbol(path[at - 1]) != kinds.variableDeclaration) {
    --at;
  }
  if (at == 0 || at == path.size()) return std::nullopt;
  TSNode node = path[at - 1];
  TSNode previous = path[at];
  ParamShape shape = readDeclaration(context, node, previous);
  if (shape.nameRange != symbol.nameRange) return std::nullopt;
  return shape;
}

std::optional<Signature> signatureOfFunction(const RuleContext& context, SymbolId function) {
  if (function == kNoSymbol || function >= context.module.symbols.size()) return std::nullopt;
  const Symbol& symbol = context.module.symbols[function];
  if (symbol.kind != SymbolKind::Function) return std::nullopt;
  const SyntaxKinds& kinds = syntaxKinds();
  std::vector<TSNode> path = pathTo(context, symbol.nameRange);
  auto definition = std::find_if(path.rbegin(), path.rend(), [&](TSNode node) {
    return ts_node_symbol(node) == kinds.functionDefinition || ts_node_symbol(node) == kinds.functionDeclaration;
  });
  return readSignature(context, definition == path.rend() ? TSNode{} : *definition, symbol.nameRange);
}

std::optional<Signature> calleeSignature(const RuleContext& context, const InstructionSite& site) {
  const Module& module = context.module;
  if (site.callee != kNoSymbol && module.symbols[site.callee].kind == SymbolKind::Function) {
    if (module.symbols[site.callee].isEntry) return std::nullopt;
    return signatureOfFunction(context, site.callee);
  }
  if (site.callTargets.end <= site.callTargets.begin) return std::nullopt;
  if (site.callee == kNoSymbol || !module.symbols[site.callee].isRegister()) return std::nullopt;
  SymbolId target = module.symbolAt(site.callTargets.begin);
  if (target == kNoSymbol || module.symbols[target].kind != SymbolKind::Label) return std::nullopt;
  return signatureOfPrototypeLabel(context, target);
}

std::optional<SignedLiteral> signedLiteral(std::string_view spelled) {
  auto trim = [](std::string_view& s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  };
  trim(spelled);
  SignedLiteral result;
  if (!spelled.empty() && (spelled.front() == '-' || spelled.front() == '+')) {
    result.negative = spelled.front() == '-';
    spelled.remove_prefix(1);
    trim(spelled);
  }
  auto value = parseIntegerLiteral(spelled);
  if (!value) return std::nullopt;
  result.magnitude = *value;
  if (result.magnitude == 0) result.negative = false;
  return result;
}

bool abiInUse(const Module& module) {
  const ModuleHeader& header = module.header;
  if (header.version && header.versionMajor < 2) return false;
  if (!header.targets.empty()) {
    bool anyAbiTarget = false;
    for (const auto& [target, range] : header.targets) {
      std::string_view name = target;
      bool sm1x = name.size() == 5 && name.starts_with("sm_1") && std::isdigit(static_cast<unsigned char>(name[4]));
      bool isModifier = !name.starts_with("sm_") && !name.starts_with("compute_");
      if (!sm1x && !isModifier) anyAbiTarget = true;
    }
    if (!anyAbiTarget) return false;
  }
  if (header.version && header.versionMajor < 3) {
    for (SymbolId id : module.scopes.empty() ? std::vector<SymbolId>{} : module.scopes[0].symbols) {
      const Symbol& symbol = module.symbols[id];
      if (symbol.spaceId == Modifier::Reg || symbol.spaceId == Modifier::Local) return false;
    }
  }
  return true;
}

}  // namespace ptx::abi

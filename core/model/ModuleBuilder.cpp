// ModuleBuilder: one pass over the tree, in source order, declaring and resolving names.
//
// Lookups use per-scope hash maps (exact names) plus the scope's parameterized ranges
// (`%r<N>`), so a use costs O(scope depth), not O(declarations). Label uses are resolved when
// their function ends, because labels may be used before they are defined.
#include "model/ModuleBuilder.h"

#include <algorithm>
#include <charconv>
#include <string>
#include <unordered_map>

#include "syntax/TreeWalk.h"

namespace ptx {
namespace modelbuild {

Module Builder::build() {
  module_.scopes.push_back({kNoScope, {0, static_cast<std::uint32_t>(text_.size())}, {}, {}});
  tables_.emplace_back();
  TSNode root = tree_.root();
  if (ts_node_is_null(root)) return std::move(module_);
  // A focused build walks one body: its arrays stay small, and counting its text would cost
  // more than their growth.
  if (!declarationsOnly_ && !bodiesWithin_) reserveForBodies(root);
  std::size_t index = 0;
  forEachChild(root, [&](TSNode item, TSFieldId) {
    if (ts_node_is_extra(item) && ts_node_symbol(item) != static_cast<TSSymbol>(-1)) return;
    // Abandoned: the rest of the items are skipped (the caller discards the model).
    if (stop_ != nullptr && stop_->load(std::memory_order_relaxed)) return;
    if (declarationsOnly_) {
      items_.push_back(item);
      cursorAtItem_.push_back(static_cast<std::uint32_t>(module_.scopes[0].symbols.size()));
    }
    moduleItem(item, index++);
  });
  indexPositions();
  return std::move(module_);
}

// The model's per-statement arrays are sized from the bodies' text before the walk. Grown by
// doubling instead, they would peak at up to three times their final size (old and new buffer
// side by side) and leave half of it spare; a server building the model of a 10 MB file would
// hold 70 MB for 45. Every instruction ends with ';' and every operand after the first follows
// a ','; the counts also include comments and declarations, so they are upper bounds
// on ordinary code, and releaseSpareCapacity trims what was not used.
void Builder::reserveForBodies(TSNode root) {
  std::vector<TSNode> items;
  forEachChild(root, [&](TSNode item, TSFieldId) { items.push_back(item); });
  reserveForBodies(items);
}

void Builder::reserveForBodies(std::span<const TSNode> items) {
  std::size_t semicolons = 0;
  std::size_t commas = 0;
  std::size_t dots = 0;
  for (TSNode item : items) {
    if (ts_node_symbol(item) != k_.functionDefinition) continue;
    ByteRange range = rangeOf(item);
    std::string_view body = text_.substr(range.begin, range.end - range.begin);
    // One pass per byte value: each is a loop the compiler vectorizes.
    semicolons += static_cast<std::size_t>(std::count(body.begin(), body.end(), ';'));
    commas += static_cast<std::size_t>(std::count(body.begin(), body.end(), ','));
    dots += static_cast<std::size_t>(std::count(body.begin(), body.end(), '.'));
  }
  module_.instructions.reserve(semicolons);
  module_.operands.reserve(semicolons + commas);
  module_.references.reserve(semicolons + commas);
  module_.modifiers.reserve(dots);
}

// The declarations pass: module items, their module-scope declarations and signatures; no
// bodies and no references.
ModuleScopeView Builder::declarationsPass(std::string_view text, const SyntaxTree& tree) {
  Builder builder(text, tree, ByteRange{UINT32_MAX, UINT32_MAX});
  builder.declarationsOnly_ = true;
  ModuleScopeView view;
  view.module = builder.build();
  view.table = std::move(builder.tables_[0]);
  view.items = std::move(builder.items_);
  view.cursorAtItem = std::move(builder.cursorAtItem_);
  view.ordinal.assign(view.module.symbols.size(), UINT32_MAX);
  const std::vector<SymbolId>& declared = view.module.scopes[0].symbols;
  for (std::size_t i = 0; i < declared.size(); ++i) view.ordinal[declared[i]] = static_cast<std::uint32_t>(i);
  return view;
}

Module Builder::buildFragment(std::span<const TSNode> items, std::size_t firstIndex, std::uint32_t cursor) {
  module_.scopes.push_back({kNoScope, {0, static_cast<std::uint32_t>(text_.size())}, {}, {}});
  tables_.emplace_back();
  moduleCursor_ = cursor;
  reserveForBodies(items);
  for (std::size_t i = 0; i < items.size(); ++i) moduleItem(items[i], firstIndex + i);
  // References are sorted per fragment; fragments cover ascending byte ranges, so their
  // concatenation is what sorting all of them would give.
  auto byBegin = [](const Reference& a, const Reference& b) { return a.range.begin < b.range.begin; };
  if (!std::is_sorted(module_.references.begin(), module_.references.end(), byBegin)) {
    std::stable_sort(module_.references.begin(), module_.references.end(), byBegin);
  }
  return std::move(module_);
}

// Orders references and declaration names by position so that symbolAt (hover,
// navigation) is a binary search rather than a scan of the whole file.
void Builder::indexPositions() {
  auto byBegin = [](const Reference& a, const Reference& b) { return a.range.begin < b.range.begin; };
  if (!std::is_sorted(module_.references.begin(), module_.references.end(), byBegin)) {
    std::stable_sort(module_.references.begin(), module_.references.end(), byBegin);
  }
  module_.symbolsByPosition.resize(module_.symbols.size());
  for (SymbolId id = 0; id < module_.symbols.size(); ++id) module_.symbolsByPosition[id] = id;
  std::stable_sort(module_.symbolsByPosition.begin(), module_.symbolsByPosition.end(), [&](SymbolId a, SymbolId b) {
    return module_.symbols[a].nameRange.begin < module_.symbols[b].nameRange.begin;
  });
}

// Declares `symbol` in `scope`, recording a duplicate when the scope already has the name.
SymbolId Builder::declare(Symbol symbol, ScopeId scope) {
  symbol.scope = scope;
  auto id = static_cast<SymbolId>(module_.symbols.size());
  module_.symbols.push_back(std::move(symbol));
  if (view_ != nullptr && scope == 0) {
    // A fragment's module-scope declaration: the declarations pass made the same one, in
    // the same order, and its table answers lookups. (Module scope records no duplicates.)
    module_.scopes[0].symbols.push_back(id);
    ++moduleCursor_;
    return id;
  }
  const Symbol& declared = module_.symbols.back();
  ScopeTable& table = tables_[scope];
  // Keys view the source text, which outlives the tables (symbol names move on growth).
  std::string_view key = text_.substr(declared.nameRange.begin, declared.name.size());
  SymbolId existing = kNoSymbol;
  if (declared.kind == SymbolKind::Label) {
    auto [it, added] = table.labels.try_emplace(key, id);
    if (!added) existing = it->second;
    module_.scopes[scope].labels.push_back(id);
  } else {
    if (declared.rangeCount == 0) {
      auto it = table.names.find(key);
      if (it != table.names.end()) existing = it->second;
      if (existing == kNoSymbol) existing = table.rangeHolding(key);
      if (existing == kNoSymbol) table.names.emplace(key, id);
    } else {
      for (const ScopeTable::Range& range : table.ranges) {
        if (existing == kNoSymbol && range.prefix == key) existing = range.id;
      }
      for (const auto& [name, other] : table.names) {
        if (existing == kNoSymbol && declared.matches(name)) existing = other;
      }
      table.ranges.push_back({key, declared.rangeCount, id});
    }
    module_.scopes[scope].symbols.push_back(id);
  }
  // A prototype followed by its definition (or a repeated prototype) is not a duplicate.
  if (existing != kNoSymbol) {
    const Symbol& first = module_.symbols[existing];
    bool functions = first.kind == SymbolKind::Function && declared.kind == SymbolKind::Function;
    bool externs = first.isExtern || declared.isExtern;
    if (!functions && !externs && scope != 0) module_.duplicates.emplace_back(existing, id);
  }
  return id;
}

SymbolId Builder::lookup(std::string_view name, ScopeId scope) const {
  for (ScopeId s = scope; s != kNoScope; s = module_.scopes[s].parent) {
    if (s == 0 && view_ != nullptr) return moduleLookup(name);
    const ScopeTable& table = tables_[s];
    if (auto it = table.names.find(name); it != table.names.end()) return it->second;
    if (SymbolId range = table.rangeHolding(name); range != kNoSymbol) return range;
  }
  return kNoSymbol;
}

// A fragment's lookup in the module scope: the declarations pass's table, restricted to the
// declarations made before this point (the first declaration of a name is the one in the
// table, so a name whose first declaration comes later is not declared yet at all).
SymbolId Builder::moduleLookup(std::string_view name) const {
  auto declaredYet = [&](SymbolId id) { return view_->ordinal[id] < moduleCursor_; };
  const ScopeTable& table = view_->table;
  if (auto it = table.names.find(name); it != table.names.end() && declaredYet(it->second)) {
    return it->second | kModuleScopeTag;
  }
  for (const ScopeTable::Range& range : table.ranges) {
    if (declaredYet(range.id) && range.holds(name)) return range.id | kModuleScopeTag;
  }
  return kNoSymbol;
}

SymbolId Builder::lookupLabel(std::string_view name, ScopeId scope) const {
  for (ScopeId s = scope; s != kNoScope && s != 0; s = module_.scopes[s].parent) {
    const ScopeTable& table = tables_[s];
    if (auto it = table.labels.find(name); it != table.labels.end()) return it->second;
  }
  return kNoSymbol;
}

void Builder::moduleItem(TSNode item, std::size_t index) {
  TSSymbol symbol = ts_node_symbol(item);
  ModuleHeader& header = module_.header;
  if (!header.firstItem) {
    header.firstItem = rangeOf(item);
  } else if (!header.secondItem) {
    header.secondItem = rangeOf(item);
  }
  if (symbol == k_.versionDirective) {
    if (!header.version) {
      header.version = rangeOf(item);
      header.versionIndex = index;
      std::string_view spelled = textOf(child(item, f_.version));
      auto dot = spelled.find('.');
      std::from_chars(spelled.data(), spelled.data() + std::min(dot, spelled.size()), header.versionMajor);
      if (dot != std::string_view::npos) {
        std::from_chars(spelled.data() + dot + 1, spelled.data() + spelled.size(), header.versionMinor);
      }
    }
  } else if (symbol == k_.targetDirective) {
    if (!header.target) {
      header.target = rangeOf(item);
      header.targetIndex = index;
    }
    forEachChild(item, [&](TSNode node, TSFieldId field) {
      if (field == f_.target) header.targets.emplace_back(std::string(textOf(node)), rangeOf(node));
    });
  } else if (symbol == k_.addressSizeDirective) {
    TSNode value = child(item, f_.size);
    std::string_view spelled = textOf(value);
    std::uint32_t size = 0;
    std::from_chars(spelled.data(), spelled.data() + spelled.size(), size);
    if (!header.addressSize) header.addressSize = size;
    header.addressSizes.emplace_back(size, ts_node_is_null(value) ? rangeOf(item) : rangeOf(value));
  } else if (symbol == k_.variableDeclaration) {
    variableDeclaration(item, 0, SymbolKind::Variable, ts_node_has_error(item));
  } else if (symbol == k_.functionDefinition || symbol == k_.functionDeclaration) {
    function(item, symbol == k_.functionDefinition);
  }
}

// Attributes shared by every declarator of one declaration or parameter.
Symbol Builder::declarationAttributes(TSNode node) const {
  Symbol shared;
  forEachChild(node, [&](TSNode part, TSFieldId field) {
    if (field == f_.space) {
      shared.spaceId = modifierNamed(textOf(part));
    } else if (field == f_.type) {
      shared.type = textOf(part);
      shared.typeId = modifierNamed(shared.type);
    } else if (field == f_.linkage) {
      shared.linkageId = modifierNamed(textOf(part));
      shared.isExtern = shared.isExtern || shared.linkageId == Modifier::Extern;
    } else if (field == f_.vector) {
      shared.vectorWidth = infoOf(modifierNamed(textOf(part))).vectorWidth;
    } else if (field == f_.align) {
      shared.alignment = literalValue(child(part, f_.value));
    } else if (field == f_.ptr) {
      shared.isPointer = true;
      TSNode space = child(part, f_.space);
      if (!ts_node_is_null(space)) {
        shared.pointerSpaceId = modifierNamed(textOf(space));
      }
      TSNode align = child(part, f_.align);
      if (!ts_node_is_null(align)) shared.pointerAlignment = literalValue(child(align, f_.value));
    }
  });
  return shared;
}

void Builder::variableDeclaration(TSNode node, ScopeId scope, SymbolKind kind, bool damaged) {
  Symbol shared = declarationAttributes(node);
  forEachChild(node, [&](TSNode part, TSFieldId field) {
    if (field != f_.declarator) return;
    declarator(part, node, scope, kind, shared, damaged);
  });
}

SymbolId Builder::declarator(TSNode node, TSNode declaration, ScopeId scope, SymbolKind kind,
                    const Symbol& shared, bool damaged) {
  TSNode name = child(node, f_.name);
  if (ts_node_is_null(name) || ts_node_symbol(name) != k_.identifier || ts_node_is_missing(name)) {
    return kNoSymbol;
  }
  Symbol symbol = shared;
  symbol.name = textOf(name);
  symbol.kind = shared.spaceId == Modifier::Reg && kind == SymbolKind::Variable ? SymbolKind::Register : kind;
  symbol.nameRange = rangeOf(name);
  symbol.declarationRange = rangeOf(declaration);
  TSNode count = child(node, f_.count);
  if (!ts_node_is_null(count)) {
    TSNode value = child(count, f_.count);
    std::string_view spelled = textOf(value);
    std::from_chars(spelled.data(), spelled.data() + spelled.size(), symbol.rangeCount);
    if (symbol.rangeCount == 0) return kNoSymbol;  // `%r<0>` declares nothing.
  }
  forEachChild(node, [&](TSNode part, TSFieldId field) {
    if (field == f_.dimension) {
      symbol.isArray = true;
      symbol.dimensions.push_back(literalValue(child(part, f_.size)));
    } else if (field == f_.initializer) {
      symbol.hasInitializer = true;
    }
    // Initializers (and array sizes) may name earlier variables and functions.
    if (field != f_.name && field != f_.count) collectUses(part, scope, ReferenceRole::Initializer, damaged);
  });
  return declare(std::move(symbol), scope);
}

void Builder::function(TSNode node, bool isDefinition) {
  TSNode name = child(node, f_.name);
  if (ts_node_is_null(name) || ts_node_is_missing(name)) return;
  Symbol symbol;
  symbol.name = textOf(name);
  symbol.kind = SymbolKind::Function;
  symbol.hasBody = isDefinition;
  symbol.nameRange = rangeOf(name);
  symbol.declarationRange = rangeOf(node);
  forEachChild(node, [&](TSNode part, TSFieldId field) {
    if (field == f_.kind) symbol.isEntry = modifierNamed(textOf(part)) == Modifier::Entry;
    if (field == f_.linkage && modifierNamed(textOf(part)) == Modifier::Extern) symbol.isExtern = true;
  });
  // Calls inside the body may recurse, so the name is declared first.
  FunctionInfo info;
  info.symbol = declare(std::move(symbol), 0);
  info.hasSyntaxErrors = ts_node_has_error(node);
  bool damaged = info.hasSyntaxErrors;
  // Prototype parameters get a scope of their own too, so that they can be listed.
  ScopeId scope = newScope(0, rangeOf(node));
  forEachChild(node, [&](TSNode part, TSFieldId field) {
    if (field == f_.returns) info.returns = parameterList(part, scope, damaged);
    if (field == f_.parameters) info.parameters = parameterList(part, scope, damaged);
    if (field == f_.directive) info.directives.push_back(headerDirective(part));
  });
  if (isDefinition) info.bodyScope = scope;
  std::size_t functionIndex = module_.functions.size();
  module_.functions.push_back(std::move(info));
  if (!isDefinition) return;
  if (bodiesWithin_ && (ts_node_end_byte(node) <= bodiesWithin_->begin || ts_node_start_byte(node) >= bodiesWithin_->end)) {
    return;  // A focused build: this body is outside the edited function.
  }
  TSNode body = child(node, f_.body);
  std::vector<PendingLabel> pending;
  FunctionInfo& recorded = module_.functions.back();
  recorded.firstInstruction = static_cast<std::uint32_t>(module_.instructions.size());
  // The body's top level shares the parameters' scope: a register named like a parameter
  // is a duplicate (ptxas: "Duplicate definition").
  if (!ts_node_is_null(body)) statements(body, scope, damaged, pending);
  resolveLabels(pending);
  // (Not `recorded`: nested declarations may have grown module_.functions meanwhile.)
  FunctionInfo& done = module_.functions[functionIndex];
  done.instructionCount = static_cast<std::uint32_t>(module_.instructions.size()) - done.firstInstruction;
}

HeaderDirective Builder::headerDirective(TSNode node) const {
  HeaderDirective directive;
  directive.range = rangeOf(node);
  forEachChild(node, [&](TSNode part, TSFieldId field) {
    if (field == f_.name) directive.name = textOf(part);
    if (field == f_.value) {
      if (auto value = literalValue(part)) directive.values.push_back(*value);
    }
  });
  return directive;
}

std::vector<SymbolId> Builder::parameterList(TSNode list, ScopeId scope, bool damaged) {
  std::vector<SymbolId> declared;
  forEachChild(list, [&](TSNode parameter, TSFieldId) {
    if (ts_node_symbol(parameter) != k_.parameter) return;
    Symbol shared = declarationAttributes(parameter);
    TSNode declaratorNode = child(parameter, f_.declarator);
    if (ts_node_is_null(declaratorNode)) return;
    SymbolId id = declarator(declaratorNode, parameter, scope, SymbolKind::Parameter, shared, damaged);
    if (id != kNoSymbol) declared.push_back(id);
  });
  return declared;
}

// Walks a body in source order. Nested blocks are entries on an explicit stack, not
// recursion, so 20,000 nested blocks cost no call stack: a block's children are pushed in
// reverse, and its scope is opened when it is reached, as a recursive walk would.
void Builder::statements(TSNode body, ScopeId bodyScope, bool damaged, std::vector<PendingLabel>& pending) {
  std::vector<std::pair<TSNode, ScopeId>>& stack = statementStack_;
  std::size_t bottom = stack.size();
  auto pushChildren = [&](TSNode block, ScopeId scope) {
    std::size_t first = stack.size();
    forEachChild(block, [&](TSNode statement, TSFieldId) { stack.emplace_back(statement, scope); });
    std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(first), stack.end());
  };
  pushChildren(body, bodyScope);
  while (stack.size() > bottom) {
    auto [statement, scope] = stack.back();
    stack.pop_back();
    TSSymbol symbol = ts_node_symbol(statement);
    if (symbol == k_.block) {
      pushChildren(statement, newScope(scope, rangeOf(statement)));
      continue;
    }
    statement_(statement, symbol, scope, damaged, pending);
  }
}

void Builder::statement_(TSNode statement, TSSymbol symbol, ScopeId scope, bool damaged,
                std::vector<PendingLabel>& pending) {
  if (symbol == k_.label) {
    TSNode name = child(statement, f_.name);
    if (ts_node_is_null(name)) return;
    Symbol label;
    label.name = textOf(name);
    label.kind = SymbolKind::Label;
    label.nameRange = rangeOf(name);
    label.declarationRange = rangeOf(statement);
    declare(std::move(label), scope);
  } else if (symbol == k_.variableDeclaration) {
    variableDeclaration(statement, scope, SymbolKind::Variable, damaged || ts_node_has_error(statement));
  } else if (symbol == k_.instruction || symbol == k_.callInstruction) {
    instruction(statement, scope, damaged || ts_node_has_error(statement), pending);
  } else if (symbol == k_.calltargetsDirective || symbol == k_.branchtargetsDirective) {
    forEachChild(statement, [&](TSNode part, TSFieldId field) {
      if (field == f_.target && ts_node_symbol(part) == k_.identifier) {
        deferLabel(part, scope, ReferenceRole::BranchTarget, damaged, pending, /*functionsToo=*/true);
      }
    });
  } else if (symbol == k_.callprototypeDirective) {
    forEachChild(statement, [&](TSNode part, TSFieldId field) {
      if (field == f_.returns || field == f_.parameters) {
        ScopeId prototypeScope = newScope(scope, rangeOf(part));
        parameterList(part, prototypeScope, true);
      }
    });
  }
}

void Builder::resolveLabels(const std::vector<PendingLabel>& pending) {
  for (const PendingLabel& item : pending) {
    Reference& reference = module_.references[item.reference];
    std::string_view name = text_.substr(reference.range.begin, reference.range.end - reference.range.begin);
    // Only labels may be used before their definition; anything else must already have
    // resolved when it was used.
    SymbolId label = lookupLabel(name, item.scope);
    reference.target = label;
    reference.predefined = label == kNoSymbol && isPredefinedName(name);
  }
}

// Resolves every instruction's spelling into facts (one entry per distinct spelling: big files
// repeat the same few hundred). Symbols get their ids when declared (declarationAttributes).
void resolveSpellings(std::string_view text, Module& module) {
  auto slice = [&](ByteRange r) {
    return r.begin <= r.end && r.end <= text.size() ? text.substr(r.begin, r.end - r.begin) : std::string_view{};
  };
  std::unordered_map<std::string_view, std::uint32_t> bySpelling;
  std::vector<std::string_view> modifiers;
  module.instructionFacts.clear();
  for (InstructionSite& site : module.instructions) {
    std::uint32_t end = site.opcode.end;
    if (site.modifierCount > 0) end = std::max(end, module.modifiers[site.firstModifier + site.modifierCount - 1].end);
    std::string_view key = slice({site.opcode.begin, end});
    auto [it, added] = bySpelling.try_emplace(key, static_cast<std::uint32_t>(module.instructionFacts.size()));
    if (added) {
      modifiers.clear();
      for (std::uint32_t m = 0; m < site.modifierCount; ++m) modifiers.push_back(slice(module.modifiers[site.firstModifier + m]));
      module.instructionFacts.push_back(resolveFacts(slice(site.opcode), modifiers));
    }
    site.factsIndex = it->second;
  }
  if (module.instructionFacts.empty()) module.instructionFacts.emplace_back();
}

// The model's big arrays grow by doubling while the tree is walked, so up to half of each is
// spare once it is built; the server keeps the model of every open document.
void releaseSpareCapacity(Module& module) {
  // Trimming copies the array; a little spare is cheaper to keep than to copy away.
  auto trim = [](auto& array) {
    if (array.capacity() - array.size() > array.size() / 16) array.shrink_to_fit();
  };
  trim(module.instructions);
  trim(module.modifiers);
  trim(module.operands);
  trim(module.symbols);
  trim(module.scopes);
  trim(module.references);
  trim(module.functions);
  trim(module.symbolsByPosition);
}

}  // namespace modelbuild

Module buildModule(std::string_view text, const SyntaxTree& tree, std::optional<ByteRange> bodiesWithin,
                   const std::atomic<bool>* stop) {
  modelbuild::Builder builder(text, tree, bodiesWithin);
  builder.stopWhen(stop);
  Module module = builder.build();
  modelbuild::resolveSpellings(text, module);
  // A focused model (one body, for a re-check) lives until the next edit replaces it:
  // trimming its arrays would copy them for nothing.
  if (!bodiesWithin) modelbuild::releaseSpareCapacity(module);
  return module;
}

}  // namespace ptx

// ModuleBuilder: one pass over the tree, in source order, declaring and resolving names.
//
// Lookups use per-scope hash maps (exact names) plus the scope's parameterized ranges
// (`%r<N>`), so a use costs O(scope depth), not O(declarations). Label uses are resolved when
// their function ends, because labels may be used before they are defined.
#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cstring>
#include <span>
#include <string>
#include <thread>
#include <unordered_map>

#include "isa/IsaReference.h"
#include "model/Module.h"
#include "syntax/SyntaxKinds.h"
#include "support/ParallelFor.h"
#include "syntax/TreeWalk.h"

namespace ptx {

std::string_view toString(SymbolKind kind) {
  switch (kind) {
    case SymbolKind::Register: return "register";
    case SymbolKind::Variable: return "variable";
    case SymbolKind::Parameter: return "parameter";
    case SymbolKind::Function: return "function";
    case SymbolKind::Label: return "label";
    case SymbolKind::Prototype: return "prototype";
  }
  return "symbol";
}

namespace {

// Parses the decimal suffix of `spelled` after `prefix`; false unless it is a plain index
// (digits only, no leading zero except "0").
bool indexAfter(std::string_view spelled, std::string_view prefix, std::uint32_t& index) {
  if (spelled.size() <= prefix.size() || !spelled.starts_with(prefix)) return false;
  std::string_view digits = spelled.substr(prefix.size());
  if (digits.size() > 1 && digits[0] == '0') return false;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  return error == std::errc() && end == digits.data() + digits.size();
}

}  // namespace

bool Symbol::matches(std::string_view spelled) const {
  if (rangeCount == 0) return spelled == name;
  std::uint32_t index = 0;
  return indexAfter(spelled, name, index) && index < rangeCount;
}

SymbolId Module::symbolAt(std::uint32_t offset) const {
  // Both lists are ordered by start (buildModule indexes them); ranges never overlap.
  auto reference = std::upper_bound(references.begin(), references.end(), offset,
                                    [](std::uint32_t at, const Reference& r) { return at < r.range.begin; });
  if (reference != references.begin()) {
    --reference;
    if (reference->range.begin <= offset && offset < reference->range.end) return reference->target;
  }
  auto symbol = std::upper_bound(symbolsByPosition.begin(), symbolsByPosition.end(), offset,
                                 [&](std::uint32_t at, SymbolId id) { return at < symbols[id].nameRange.begin; });
  if (symbol != symbolsByPosition.begin()) {
    --symbol;
    const ByteRange& range = symbols[*symbol].nameRange;
    if (range.begin <= offset && offset < range.end) return *symbol;
  }
  return kNoSymbol;
}

std::span<const Reference> Module::referencesWithin(ByteRange range) const {
  auto byBegin = [](const Reference& r, std::uint32_t at) { return r.range.begin < at; };
  auto first = std::lower_bound(references.begin(), references.end(), range.begin, byBegin);
  auto last = std::lower_bound(first, references.end(), range.end, byBegin);
  return {first, last};
}

std::optional<std::uint64_t> parseIntegerLiteral(std::string_view spelled) {
  if (spelled.ends_with("U")) spelled.remove_suffix(1);
  if (spelled.empty()) return std::nullopt;
  int base = 10;
  if (spelled.size() > 1 && spelled[0] == '0') {
    if (spelled[1] == 'x' || spelled[1] == 'X') {
      base = 16;
      spelled.remove_prefix(2);
    } else if (spelled[1] == 'b' || spelled[1] == 'B') {
      base = 2;
      spelled.remove_prefix(2);
    } else {
      base = 8;
      spelled.remove_prefix(1);
    }
  }
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(spelled.data(), spelled.data() + spelled.size(), value, base);
  if (error != std::errc() || end != spelled.data() + spelled.size()) return std::nullopt;
  return value;
}

bool isPredefinedName(std::string_view name) { return findSpecialRegister(name) != nullptr; }

namespace {

// Parallel builds (buildModuleParallel): a declarations-only pass over the module items
// records every module-scope declaration in order; then groups of consecutive items are built
// by separate Builders ("fragments") whose lookups that reach the module scope consult that
// pass, seeing only the declarations made before the current point, exactly as the one-pass
// build would; the fragments are then concatenated with their ids shifted.
struct ScopeTable {
  std::unordered_map<std::string_view, SymbolId> names;
  std::vector<SymbolId> ranges;
  std::unordered_map<std::string_view, SymbolId> labels;
};

// What the declarations pass saw, for the fragments.
struct ModuleScopeView {
  Module module;      // Module-scope declarations and signatures, in order.
  ScopeTable table;   // Its module-scope table (first declaration of each name wins).
  // Per symbol of `module`: its position among the module-scope declarations (UINT32_MAX for
  // parameters), which tells whether it is declared yet at a point of a fragment.
  std::vector<std::uint32_t> ordinal;
  std::vector<TSNode> items;                // The module items.
  std::vector<std::uint32_t> cursorAtItem;  // Module-scope declarations before each item.
};

// A name resolved to a module-scope declaration of the declarations pass, in a fragment.
constexpr SymbolId kModuleScopeTag = 0x80000000u;

class Builder {
 public:
  Builder(std::string_view text, const SyntaxTree& tree, std::optional<ByteRange> bodiesWithin)
      : text_(text), tree_(tree), bodiesWithin_(bodiesWithin), k_(syntaxKinds()), f_(k_.fields) {}

  Module build() {
    module_.scopes.push_back({kNoScope, {0, static_cast<std::uint32_t>(text_.size())}, {}, {}});
    tables_.emplace_back();
    TSNode root = tree_.root();
    if (ts_node_is_null(root)) return std::move(module_);
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    std::size_t index = 0;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      do {
        TSNode item = ts_tree_cursor_current_node(&cursor);
        if (ts_node_is_extra(item) && ts_node_symbol(item) != static_cast<TSSymbol>(-1)) continue;
        if (declarationsOnly_) {
          items_.push_back(item);
          cursorAtItem_.push_back(static_cast<std::uint32_t>(module_.scopes[0].symbols.size()));
        }
        moduleItem(item, index++);
      } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    indexPositions();
    return std::move(module_);
  }

  // The declarations pass: module items, their module-scope declarations and signatures; no
  // bodies and no references.
  static ModuleScopeView declarationsPass(std::string_view text, const SyntaxTree& tree) {
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

  // A fragment: builds items [first, last) of the declarations pass `view`.
  Builder(std::string_view text, const SyntaxTree& tree, const ModuleScopeView& view)
      : text_(text), tree_(tree), k_(syntaxKinds()), f_(k_.fields), view_(&view) {}

  Module buildFragment(std::span<const TSNode> items, std::size_t firstIndex, std::uint32_t cursor) {
    module_.scopes.push_back({kNoScope, {0, static_cast<std::uint32_t>(text_.size())}, {}, {}});
    tables_.emplace_back();
    moduleCursor_ = cursor;
    for (std::size_t i = 0; i < items.size(); ++i) moduleItem(items[i], firstIndex + i);
    // References are sorted per fragment; fragments cover ascending byte ranges, so their
    // concatenation is what sorting all of them would give.
    auto byBegin = [](const Reference& a, const Reference& b) { return a.range.begin < b.range.begin; };
    if (!std::is_sorted(module_.references.begin(), module_.references.end(), byBegin)) {
      std::stable_sort(module_.references.begin(), module_.references.end(), byBegin);
    }
    return std::move(module_);
  }

 private:
  // Orders references and declaration names by position so that symbolAt (hover,
  // navigation) is a binary search rather than a scan of the whole file.
  void indexPositions() {
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

  struct PendingLabel {
    std::size_t reference;
    ScopeId scope;
  };

  std::string_view textOf(TSNode node) const {
    auto begin = std::min<std::size_t>(ts_node_start_byte(node), text_.size());
    auto end = std::min<std::size_t>(ts_node_end_byte(node), text_.size());
    return text_.substr(begin, end - begin);
  }


  TSNode child(TSNode node, TSFieldId field) const { return ts_node_child_by_field_id(node, field); }

  ScopeId newScope(ScopeId parent, ByteRange range) {
    module_.scopes.push_back({parent, range, {}, {}});
    tables_.emplace_back();
    return static_cast<ScopeId>(module_.scopes.size() - 1);
  }

  // Declares `symbol` in `scope`, recording a duplicate when the scope already has the name.
  SymbolId declare(Symbol symbol, ScopeId scope) {
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
      auto it = table.labels.find(key);
      if (it != table.labels.end()) existing = it->second;
      else table.labels.emplace(key, id);
      module_.scopes[scope].labels.push_back(id);
    } else {
      if (declared.rangeCount == 0) {
        auto it = table.names.find(key);
        if (it != table.names.end()) existing = it->second;
        for (SymbolId range : table.ranges) {
          if (existing == kNoSymbol && module_.symbols[range].matches(declared.name)) existing = range;
        }
        if (existing == kNoSymbol) table.names.emplace(key, id);
      } else {
        for (SymbolId range : table.ranges) {
          if (existing == kNoSymbol && module_.symbols[range].name == declared.name) existing = range;
        }
        for (const auto& [name, other] : table.names) {
          if (existing == kNoSymbol && declared.matches(name)) existing = other;
        }
        table.ranges.push_back(id);
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

  SymbolId lookup(std::string_view name, ScopeId scope) const {
    for (ScopeId s = scope; s != kNoScope; s = module_.scopes[s].parent) {
      if (s == 0 && view_ != nullptr) return moduleLookup(name);
      const ScopeTable& table = tables_[s];
      if (auto it = table.names.find(name); it != table.names.end()) return it->second;
      for (SymbolId range : table.ranges) {
        if (module_.symbols[range].matches(name)) return range;
      }
    }
    return kNoSymbol;
  }

  // A fragment's lookup in the module scope: the declarations pass's table, restricted to the
  // declarations made before this point (the first declaration of a name is the one in the
  // table, so a name whose first declaration comes later is not declared yet at all).
  SymbolId moduleLookup(std::string_view name) const {
    auto declaredYet = [&](SymbolId id) { return view_->ordinal[id] < moduleCursor_; };
    const ScopeTable& table = view_->table;
    if (auto it = table.names.find(name); it != table.names.end() && declaredYet(it->second)) {
      return it->second | kModuleScopeTag;
    }
    for (SymbolId range : table.ranges) {
      if (declaredYet(range) && view_->module.symbols[range].matches(name)) return range | kModuleScopeTag;
    }
    return kNoSymbol;
  }

  // A symbol by id; in a fragment, ids tagged kModuleScopeTag are the declarations pass's.
  const Symbol& symbolOf(SymbolId id) const {
    if (view_ != nullptr && (id & kModuleScopeTag) != 0) return view_->module.symbols[id & ~kModuleScopeTag];
    return module_.symbols[id];
  }

  SymbolId lookupLabel(std::string_view name, ScopeId scope) const {
    for (ScopeId s = scope; s != kNoScope && s != 0; s = module_.scopes[s].parent) {
      const ScopeTable& table = tables_[s];
      if (auto it = table.labels.find(name); it != table.labels.end()) return it->second;
    }
    return kNoSymbol;
  }

  void moduleItem(TSNode item, std::size_t index) {
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
  Symbol declarationAttributes(TSNode node) const {
    Symbol shared;
    forEachChild(node, [&](TSNode part, TSFieldId field) {
      if (field == f_.space) {
        shared.space = textOf(part);
      } else if (field == f_.type) {
        shared.type = textOf(part);
      } else if (field == f_.linkage) {
        shared.linkage = textOf(part);
        shared.isExtern = shared.isExtern || shared.linkage == ".extern";
      } else if (field == f_.vector) {
        std::string_view width = textOf(part);
        shared.vectorWidth = width == ".v2" ? 2 : width == ".v4" ? 4 : width == ".v8" ? 8 : 0;
      } else if (field == f_.align) {
        shared.alignment = literalValue(child(part, f_.value));
      } else if (field == f_.ptr) {
        shared.isPointer = true;
        TSNode space = child(part, f_.space);
        if (!ts_node_is_null(space)) shared.pointerSpace = textOf(space);
        TSNode align = child(part, f_.align);
        if (!ts_node_is_null(align)) shared.pointerAlignment = literalValue(child(align, f_.value));
      }
    });
    return shared;
  }

  std::optional<std::uint64_t> literalValue(TSNode node) const {
    if (ts_node_is_null(node)) return std::nullopt;
    return parseIntegerLiteral(textOf(node));
  }

  void variableDeclaration(TSNode node, ScopeId scope, SymbolKind kind, bool damaged) {
    Symbol shared = declarationAttributes(node);
    forEachChild(node, [&](TSNode part, TSFieldId field) {
      if (field != f_.declarator) return;
      declarator(part, node, scope, kind, shared, damaged);
    });
  }

  SymbolId declarator(TSNode node, TSNode declaration, ScopeId scope, SymbolKind kind,
                      const Symbol& shared, bool damaged) {
    TSNode name = child(node, f_.name);
    if (ts_node_is_null(name) || ts_node_symbol(name) != k_.identifier || ts_node_is_missing(name)) {
      return kNoSymbol;
    }
    Symbol symbol = shared;
    symbol.name = textOf(name);
    symbol.kind = shared.space == ".reg" && kind == SymbolKind::Variable ? SymbolKind::Register : kind;
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

  void function(TSNode node, bool isDefinition) {
    TSNode name = child(node, f_.name);
    if (ts_node_is_null(name) || ts_node_is_missing(name)) return;
    Symbol symbol;
    symbol.name = textOf(name);
    symbol.kind = SymbolKind::Function;
    symbol.hasBody = isDefinition;
    symbol.nameRange = rangeOf(name);
    symbol.declarationRange = rangeOf(node);
    forEachChild(node, [&](TSNode part, TSFieldId field) {
      if (field == f_.kind) symbol.isEntry = textOf(part) == ".entry";
      if (field == f_.linkage && textOf(part) == ".extern") symbol.isExtern = true;
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

  HeaderDirective headerDirective(TSNode node) const {
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

  std::vector<SymbolId> parameterList(TSNode list, ScopeId scope, bool damaged) {
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

  // Walks a body in source order. Nested blocks are frames on an explicit stack, not
  // recursion, so 20,000 nested blocks cost no call stack.
  void statements(TSNode body, ScopeId bodyScope, bool damaged, std::vector<PendingLabel>& pending) {
    struct Frame {
      TSTreeCursor cursor;
      ScopeId scope;
      bool started;
    };
    std::vector<Frame> stack;
    stack.push_back({ts_tree_cursor_new(body), bodyScope, false});
    while (!stack.empty()) {
      Frame& frame = stack.back();
      bool hasNode = frame.started ? ts_tree_cursor_goto_next_sibling(&frame.cursor)
                                   : ts_tree_cursor_goto_first_child(&frame.cursor);
      frame.started = true;
      if (!hasNode) {
        ts_tree_cursor_delete(&frame.cursor);
        stack.pop_back();
        continue;
      }
      ScopeId scope = frame.scope;
      TSNode statement = ts_tree_cursor_current_node(&frame.cursor);
      TSSymbol symbol = ts_node_symbol(statement);
      if (symbol == k_.block) {
        ScopeId inner = newScope(scope, rangeOf(statement));
        stack.push_back({ts_tree_cursor_new(statement), inner, false});
        continue;
      }
      statement_(statement, symbol, scope, damaged, pending);
    }
  }

  void statement_(TSNode statement, TSSymbol symbol, ScopeId scope, bool damaged,
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

  // One pass over the statement's children (they come in order: guard, opcode, modifiers,
  // operands): resolves every name in it and records the site with its modifiers and the
  // shape of each operand.
  void instruction(TSNode node, ScopeId scope, bool damaged, std::vector<PendingLabel>& pending) {
    TSNode opcode{};
    std::string_view op;
    bool branch = false;
    bool isCall = ts_node_symbol(node) == k_.callInstruction;
    TSNode guard{};
    TSNode callee{};
    TSNode callTargets{};
    std::uint32_t callReturnCount = 0;
    auto firstModifier = static_cast<std::uint32_t>(module_.modifiers.size());
    operandNodes_.clear();
    forEachChild(node, [&](TSNode part, TSFieldId field) {
      if (field == f_.opcode) {
        opcode = part;
        op = textOf(part);
        // `@ bra L;` reads as guard `bra`, opcode `L`: SYN008 reports it; names in it are noise.
        if (op.empty() || !((op[0] >= 'a' && op[0] <= 'z') || (op[0] >= 'A' && op[0] <= 'Z'))) damaged = true;
        branch = op == "bra" || op == "brx";
        return;
      }
      if (field == f_.modifier) {
        module_.modifiers.push_back(rangeOf(part));
        return;
      }
      if (field == f_.operand && !isCall) operandNodes_.push_back(part);
      if (isCall && (field == f_.returns || field == f_.arguments)) {
        forEachChild(part, [&](TSNode value, TSFieldId valueField) {
          if (valueField != f_.value && valueField != f_.argument) return;
          operandNodes_.push_back(value);
          if (field == f_.returns) ++callReturnCount;
        });
      }
      if (field == f_.guard) {
        guard = part;  // Resolved below, once the opcode has said whether this is damaged.
      } else if (field == f_.callee) {
        // A direct call names a function; an indirect one a register holding its address.
        SymbolId target = lookup(textOf(part), scope);
        addReference(part, target, ReferenceRole::Callee, damaged);
        callee = part;
      } else if (field == f_.targets) {
        callTargets = part;
        deferLabel(part, scope, ReferenceRole::Operand, damaged, pending, true);
      } else if (branch && ts_node_symbol(part) == k_.identifier) {
        // `brx.idx %r1, $table`: the index is a register declared earlier, the rest labels.
        SymbolId declared = lookup(textOf(part), scope);
        if (declared != kNoSymbol) {
          addReference(part, declared, ReferenceRole::Operand, damaged);
        } else {
          deferLabel(part, scope, ReferenceRole::BranchTarget, damaged, pending, false);
        }
      } else {
        collectUses(part, scope, ReferenceRole::Operand, damaged, &pending);
      }
    });
    if (!ts_node_is_null(guard)) {
      TSNode predicate = child(guard, f_.predicate);
      if (!ts_node_is_null(predicate)) use(predicate, scope, ReferenceRole::Guard, damaged);
    }
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
      TSNode predicate = child(guard, f_.predicate);
      if (!ts_node_is_null(predicate) && ts_node_symbol(predicate) == k_.identifier) {
        site.guardSymbol = lookup(textOf(predicate), scope);
      }
    }
    if (isCall) {
      site.callReturnCount = callReturnCount;
      if (!ts_node_is_null(callee)) {
        site.calleeRange = rangeOf(callee);
        site.callee = lookup(textOf(callee), scope);
      }
      if (!ts_node_is_null(callTargets)) site.callTargets = rangeOf(callTargets);
    }
    site.firstModifier = firstModifier;
    site.modifierCount = static_cast<std::uint32_t>(module_.modifiers.size()) - firstModifier;
    site.firstOperand = static_cast<std::uint32_t>(module_.operands.size());
    site.operandCount = static_cast<std::uint32_t>(operandNodes_.size());
    module_.operands.resize(module_.operands.size() + operandNodes_.size());
    for (std::size_t i = 0; i < operandNodes_.size(); ++i) {
      InstructionOperand shaped = shapeOf(operandNodes_[i], scope);
      module_.operands[site.firstOperand + i] = shaped;
    }
    module_.instructions.push_back(site);
  }

  InstructionOperand shapeOf(TSNode node, ScopeId scope) {
    InstructionOperand operand;
    operand.range = rangeOf(node);
    TSSymbol symbol = ts_node_symbol(node);
    if (symbol == k_.identifier) {
      std::string_view name = textOf(node);
      operand.symbol = lookup(name, scope);
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
  void appendTupleElements(TSNode address, ScopeId scope, InstructionOperand& operand) {
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

  void appendElements(TSNode node, TSFieldId field, ScopeId scope, InstructionOperand& operand) {
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

  // Visits every identifier below `node` (iteratively) as a use.
  void collectUses(TSNode node, ScopeId scope, ReferenceRole role, bool damaged,
                   std::vector<PendingLabel>* pending = nullptr) {
    if (declarationsOnly_) return;  // Uses declare nothing.
    TSTreeCursor cursor = ts_tree_cursor_new(node);
    std::uint32_t depth = 0;
    while (true) {
      TSNode current = ts_tree_cursor_current_node(&cursor);
      TSSymbol symbol = ts_node_symbol(current);
      // Opaque-type initializers name fields and enum values (`filter_mode = nearest`), not
      // symbols.
      bool descend = symbol != k_.fieldInitializer;
      if (symbol == k_.identifier) {
        descend = false;
        if (ts_tree_cursor_current_field_id(&cursor) != f_.field) {
          SymbolId target = lookup(textOf(current), scope);
          if (target == kNoSymbol && pending != nullptr && !isPredefinedName(textOf(current))) {
            // Possibly a label used as data (e.g. a `brx.idx` table name).
            deferLabel(current, scope, role, damaged, *pending, false);
          } else {
            addReference(current, target, role, damaged);
          }
        }
      }
      if (descend && ts_tree_cursor_goto_first_child(&cursor)) {
        ++depth;
        continue;
      }
      bool moved = false;
      while (depth > 0 && !moved) {
        if (ts_tree_cursor_goto_next_sibling(&cursor)) {
          moved = true;
        } else {
          ts_tree_cursor_goto_parent(&cursor);
          --depth;
        }
      }
      if (!moved) break;
    }
    ts_tree_cursor_delete(&cursor);
  }

  void use(TSNode node, ScopeId scope, ReferenceRole role, bool damaged) {
    if (ts_node_symbol(node) != k_.identifier) {
      collectUses(node, scope, role, damaged);
      return;
    }
    addReference(node, lookup(textOf(node), scope), role, damaged);
  }

  std::size_t addReference(TSNode node, SymbolId target, ReferenceRole role, bool damaged) {
    Reference reference;
    reference.range = rangeOf(node);
    reference.target = target;
    reference.role = role;
    reference.inDamagedCode = damaged || ts_node_is_missing(node);
    reference.predefined = target == kNoSymbol && isPredefinedName(textOf(node));
    module_.references.push_back(reference);
    return module_.references.size() - 1;
  }

  void deferLabel(TSNode node, ScopeId scope, ReferenceRole role, bool damaged,
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

  void resolveLabels(const std::vector<PendingLabel>& pending) {
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

  std::string_view text_;
  const SyntaxTree& tree_;
  std::optional<ByteRange> bodiesWithin_;
  Module module_;
  std::vector<ScopeTable> tables_;
  const SyntaxKinds& k_;
  const SyntaxFields& f_;
  std::vector<TSNode> operandNodes_;  // Scratch space of recordInstruction.
  // Declarations pass.
  bool declarationsOnly_ = false;
  std::vector<TSNode> items_;
  std::vector<std::uint32_t> cursorAtItem_;
  // Fragment.
  const ModuleScopeView* view_ = nullptr;
  std::uint32_t moduleCursor_ = 0;  // Module-scope declarations made so far.
};

// Appends `fragments` (consecutive groups of module items, in order) into one module, as the
// one-pass build would have numbered it: each fragment's symbols, scopes, instructions,
// operands, modifiers, references and functions follow the previous fragment's.
Module joinFragments(std::string_view text, ModuleScopeView& view, std::vector<Module>& fragments,
                     const std::vector<std::size_t>& firstItems, unsigned threads) {
  std::size_t count = fragments.size();
  struct Bases {
    std::size_t symbols = 0, scopes = 0, instructions = 0, modifiers = 0, operands = 0, references = 0,
                functions = 0, duplicates = 0;
  };
  std::vector<Bases> bases(count);
  Bases total;
  total.scopes = 1;  // The module scope.
  for (std::size_t g = 0; g < count; ++g) {
    const Module& fragment = fragments[g];
    bases[g] = total;
    total.symbols += fragment.symbols.size();
    total.scopes += fragment.scopes.size() - 1;
    total.instructions += fragment.instructions.size();
    total.modifiers += fragment.modifiers.size();
    total.operands += fragment.operands.size();
    total.references += fragment.references.size();
    total.functions += fragment.functions.size();
    total.duplicates += fragment.duplicates.size();
  }
  // Where each module-scope declaration of the declarations pass lands.
  std::vector<SymbolId> finalOf(view.module.symbols.size(), kNoSymbol);
  Module module;
  module.header = std::move(view.module.header);
  module.scopes.resize(total.scopes);
  module.scopes[0] = {kNoScope, {0, static_cast<std::uint32_t>(text.size())}, {}, {}};
  for (std::size_t g = 0; g < count; ++g) {
    std::uint32_t ordinal = view.cursorAtItem[firstItems[g]];
    for (SymbolId local : fragments[g].scopes[0].symbols) {
      auto global = static_cast<SymbolId>(bases[g].symbols + local);
      finalOf[view.module.scopes[0].symbols[ordinal++]] = global;
      module.scopes[0].symbols.push_back(global);
    }
  }
  module.symbols.resize(total.symbols);
  module.instructions.resize(total.instructions);
  module.modifiers.resize(total.modifiers);
  module.operands.resize(total.operands);
  module.references.resize(total.references);
  module.functions.resize(total.functions);
  module.duplicates.resize(total.duplicates);
  parallelFor(count, threads, [&](std::size_t g) {
    Module& fragment = fragments[g];
    const Bases& base = bases[g];
    auto symbol = [&](SymbolId id) -> SymbolId {
      if (id == kNoSymbol) return kNoSymbol;
      if ((id & kModuleScopeTag) != 0) return finalOf[id & ~kModuleScopeTag];
      return static_cast<SymbolId>(base.symbols + id);
    };
    auto scope = [&](ScopeId id) -> ScopeId {
      if (id == kNoScope || id == 0) return id;
      return static_cast<ScopeId>(base.scopes + id - 1);
    };
    for (std::size_t i = 0; i < fragment.symbols.size(); ++i) {
      Symbol& moved = module.symbols[base.symbols + i] = std::move(fragment.symbols[i]);
      moved.scope = scope(moved.scope);
    }
    for (std::size_t i = 1; i < fragment.scopes.size(); ++i) {
      Scope& moved = module.scopes[base.scopes + i - 1] = std::move(fragment.scopes[i]);
      moved.parent = scope(moved.parent);
      for (SymbolId& id : moved.symbols) id = symbol(id);
      for (SymbolId& id : moved.labels) id = symbol(id);
    }
    for (std::size_t i = 0; i < fragment.instructions.size(); ++i) {
      InstructionSite& site = module.instructions[base.instructions + i] = fragment.instructions[i];
      site.firstModifier += static_cast<std::uint32_t>(base.modifiers);
      site.firstOperand += static_cast<std::uint32_t>(base.operands);
      site.scope = scope(site.scope);
      site.guardSymbol = symbol(site.guardSymbol);
      site.callee = symbol(site.callee);
    }
    std::copy(fragment.modifiers.begin(), fragment.modifiers.end(), module.modifiers.begin() + base.modifiers);
    for (std::size_t i = 0; i < fragment.operands.size(); ++i) {
      InstructionOperand& operand = module.operands[base.operands + i] = fragment.operands[i];
      operand.symbol = symbol(operand.symbol);
      if (operand.shape == OperandShape::Vector || operand.shape == OperandShape::PredicatePair) {
        operand.firstElement += static_cast<std::uint32_t>(base.operands);
      }
      if (operand.tupleElementCount > 0) operand.firstTupleElement += static_cast<std::uint32_t>(base.operands);
    }
    for (std::size_t i = 0; i < fragment.references.size(); ++i) {
      Reference& reference = module.references[base.references + i] = fragment.references[i];
      reference.target = symbol(reference.target);
    }
    for (std::size_t i = 0; i < fragment.functions.size(); ++i) {
      FunctionInfo& function = module.functions[base.functions + i] = std::move(fragment.functions[i]);
      function.symbol = symbol(function.symbol);
      for (SymbolId& id : function.returns) id = symbol(id);
      for (SymbolId& id : function.parameters) id = symbol(id);
      // Only definitions whose body was walked have an instruction range.
      if (function.bodyScope != kNoScope) function.firstInstruction += static_cast<std::uint32_t>(base.instructions);
      function.bodyScope = scope(function.bodyScope);
    }
    for (std::size_t i = 0; i < fragment.duplicates.size(); ++i) {
      auto [existing, duplicate] = fragment.duplicates[i];
      module.duplicates[base.duplicates + i] = {symbol(existing), symbol(duplicate)};
    }
    fragment = Module{};
  });
  module.symbolsByPosition.resize(module.symbols.size());
  for (SymbolId id = 0; id < module.symbols.size(); ++id) module.symbolsByPosition[id] = id;
  std::stable_sort(module.symbolsByPosition.begin(), module.symbolsByPosition.end(), [&](SymbolId a, SymbolId b) {
    return module.symbols[a].nameRange.begin < module.symbols[b].nameRange.begin;
  });
  return module;
}

}  // namespace

// Resolves every instruction's spelling into facts (one entry per distinct spelling: big files
// repeat the same few hundred) and every symbol's spellings into ids.
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
  for (Symbol& symbol : module.symbols) {
    if (!symbol.space.empty()) symbol.spaceId = modifierNamed(symbol.space);
    if (!symbol.type.empty()) symbol.typeId = modifierNamed(symbol.type);
    if (!symbol.linkage.empty()) symbol.linkageId = modifierNamed(symbol.linkage);
    if (!symbol.pointerSpace.empty()) symbol.pointerSpaceId = modifierNamed(symbol.pointerSpace);
  }
}

Module buildModule(std::string_view text, const SyntaxTree& tree, std::optional<ByteRange> bodiesWithin) {
  Module module = Builder(text, tree, bodiesWithin).build();
  resolveSpellings(text, module);
  return module;
}

Module buildModuleParallel(std::string_view text, const SyntaxTree& tree, unsigned threads) {
  if (threads <= 1 || ts_node_is_null(tree.root())) return buildModule(text, tree);
  ModuleScopeView view = Builder::declarationsPass(text, tree);
  const std::vector<TSNode>& items = view.items;
  if (items.size() < 2) return buildModule(text, tree);
  // Groups of consecutive items of about equal size, a few per thread so that one big
  // function does not leave the other threads idle.
  std::uint64_t bytes = ts_node_end_byte(items.back()) - ts_node_start_byte(items.front());
  std::uint64_t target = std::max<std::uint64_t>(bytes / (std::uint64_t{threads} * 4), 1);
  std::vector<std::size_t> firstItems{0};
  std::uint32_t groupStart = ts_node_start_byte(items.front());
  for (std::size_t i = 1; i < items.size(); ++i) {
    if (ts_node_start_byte(items[i]) - groupStart >= target) {
      firstItems.push_back(i);
      groupStart = ts_node_start_byte(items[i]);
    }
  }
  if (firstItems.size() < 2) return buildModule(text, tree);
  std::vector<Module> fragments(firstItems.size());
  auto lastItem = [&](std::size_t g) { return g + 1 < firstItems.size() ? firstItems[g + 1] : items.size(); };
  auto groupBytes = [&](std::size_t g) {
    return ts_node_end_byte(items[lastItem(g) - 1]) - ts_node_start_byte(items[firstItems[g]]);
  };
  // Biggest groups first, so that no big one is left for the end while other threads idle.
  std::vector<std::size_t> order(fragments.size());
  for (std::size_t g = 0; g < order.size(); ++g) order[g] = g;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return groupBytes(a) > groupBytes(b); });
  parallelFor(fragments.size(), threads, [&](std::size_t taken) {
    std::size_t g = order[taken];
    std::size_t first = firstItems[g];
    std::size_t last = lastItem(g);
    Builder builder(text, tree, view);
    fragments[g] = builder.buildFragment(std::span<const TSNode>(items).subspan(first, last - first), first,
                                         view.cursorAtItem[first]);
  });
  // Each fragment made the module-scope declarations the declarations pass saw in its items
  // (the same code on the same nodes); anything else would be a bug, which the one-pass
  // build sidesteps.
  for (std::size_t g = 0; g < fragments.size(); ++g) {
    std::size_t last = lastItem(g);
    std::uint32_t end = last < items.size() ? view.cursorAtItem[last] : static_cast<std::uint32_t>(view.module.scopes[0].symbols.size());
    if (fragments[g].scopes[0].symbols.size() != end - view.cursorAtItem[firstItems[g]]) return buildModule(text, tree);
  }
  Module module = joinFragments(text, view, fragments, firstItems, threads);
  resolveSpellings(text, module);
  return module;
}

}  // namespace ptx

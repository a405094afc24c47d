// ModuleBuilder (internal to core/model): the Builder that walks a tree in source order,
// declaring and resolving names, and the pieces the parallel build shares with it. Its member
// functions live in three files: ModuleBuilder.cpp (items, declarations, scopes and lookups),
// ModuleInstructions.cpp (instructions, operand shapes and uses) and ModuleParallel.cpp (the
// declarations pass's fragments and their join).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/Module.h"
#include "syntax/SyntaxKinds.h"
#include "syntax/TreeChildren.h"

namespace ptx::modelbuild {

// Parallel builds (buildModuleParallel): a declarations-only pass over the module items
// records every module-scope declaration in order; then groups of consecutive items are built
// by separate Builders ("fragments") whose lookups that reach the module scope consult that
// pass, seeing only the declarations made before the current point, exactly as the one-pass
// build would; the fragments are then concatenated with their ids shifted.
struct ScopeTable {
  std::unordered_map<std::string_view, SymbolId> names;
  // The parameterized ranges (`%rd<40>`), in declaration order, as (prefix, count) beside
  // their ids: resolving a register reads this array rather than each range's Symbol.
  struct Range {
    std::string_view prefix;  // Views the source text, as `names`' keys do.
    std::uint32_t count = 0;
    SymbolId id = kNoSymbol;
    bool holds(std::string_view name) const {
      std::optional<std::uint32_t> index = rangeIndexOf(name, prefix);
      return index && *index < count;
    }
  };
  std::vector<Range> ranges;
  std::unordered_map<std::string_view, SymbolId> labels;

  // The first range that holds `name` (Symbol::matches), or kNoSymbol.
  SymbolId rangeHolding(std::string_view name) const {
    for (const Range& range : ranges) {
      if (range.holds(name)) return range.id;
    }
    return kNoSymbol;
  }
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

  Module build();
  // While `flag` is set, build() skips the module items it has not reached (a partial model,
  // for a caller that will discard it).
  void stopWhen(const std::atomic<bool>* flag) { stop_ = flag; }

  // The declarations pass: module items, their module-scope declarations and signatures; no
  // bodies and no references.
  static ModuleScopeView declarationsPass(std::string_view text, const SyntaxTree& tree);

  // A fragment: builds items [first, last) of the declarations pass `view`.
  Builder(std::string_view text, const SyntaxTree& tree, const ModuleScopeView& view)
      : text_(text), tree_(tree), k_(syntaxKinds()), f_(k_.fields), view_(&view) {}

  Module buildFragment(std::span<const TSNode> items, std::size_t firstIndex, std::uint32_t cursor);

 private:
  // Sizes the per-statement arrays of a full build from the bodies' text (see the definition).
  void reserveForBodies(TSNode root);
  void reserveForBodies(std::span<const TSNode> items);
  // Orders references and declaration names by position so that symbolAt (hover,
  // navigation) is a binary search rather than a scan of the whole file.
  void indexPositions();

  struct PendingLabel {
    std::size_t reference;
    ScopeId scope;
  };

  std::string_view textOf(TSNode node) const {
    auto begin = std::min<std::size_t>(ts_node_start_byte(node), text_.size());
    auto end = std::min<std::size_t>(ts_node_end_byte(node), text_.size());
    return text_.substr(begin, end - begin);
  }

  TSNode child(TSNode node, TSFieldId field) const { return childWithField(node, field); }

  ScopeId newScope(ScopeId parent, ByteRange range) {
    module_.scopes.push_back({parent, range, {}, {}});
    tables_.emplace_back();
    return static_cast<ScopeId>(module_.scopes.size() - 1);
  }

  // Declares `symbol` in `scope`, recording a duplicate when the scope already has the name.
  SymbolId declare(Symbol symbol, ScopeId scope);

  SymbolId lookup(std::string_view name, ScopeId scope) const;

  // A fragment's lookup in the module scope: the declarations pass's table, restricted to the
  // declarations made before this point (the first declaration of a name is the one in the
  // table, so a name whose first declaration comes later is not declared yet at all).
  SymbolId moduleLookup(std::string_view name) const;

  // A symbol by id; in a fragment, ids tagged kModuleScopeTag are the declarations pass's.
  const Symbol& symbolOf(SymbolId id) const {
    if (view_ != nullptr && (id & kModuleScopeTag) != 0) return view_->module.symbols[id & ~kModuleScopeTag];
    return module_.symbols[id];
  }

  SymbolId lookupLabel(std::string_view name, ScopeId scope) const;

  void moduleItem(TSNode item, std::size_t index);

  // Attributes shared by every declarator of one declaration or parameter.
  Symbol declarationAttributes(TSNode node) const;

  std::optional<std::uint64_t> literalValue(TSNode node) const {
    if (ts_node_is_null(node)) return std::nullopt;
    return parseIntegerLiteral(textOf(node));
  }

  void variableDeclaration(TSNode node, ScopeId scope, SymbolKind kind, bool damaged);

  SymbolId declarator(TSNode node, TSNode declaration, ScopeId scope, SymbolKind kind,
                      const Symbol& shared, bool damaged);

  void function(TSNode node, bool isDefinition);

  HeaderDirective headerDirective(TSNode node) const;

  std::vector<SymbolId> parameterList(TSNode list, ScopeId scope, bool damaged);

  // Walks a body in source order. Nested blocks are frames on an explicit stack, not
  // recursion, so 20,000 nested blocks cost no call stack.
  void statements(TSNode body, ScopeId bodyScope, bool damaged, std::vector<PendingLabel>& pending);

  void statement_(TSNode statement, TSSymbol symbol, ScopeId scope, bool damaged,
                  std::vector<PendingLabel>& pending);

  // One pass over the statement's children (they come in order: guard, opcode, modifiers,
  // operands): resolves every name in it and records the site with its modifiers and the
  // shape of each operand.
  void instruction(TSNode node, ScopeId scope, bool damaged, std::vector<PendingLabel>& pending);

  // `resolved`: the operand name's lookup, when the caller has made it already.
  InstructionOperand shapeOf(TSNode node, ScopeId scope, std::optional<SymbolId> resolved = std::nullopt);

  // A texture/surface address's tuple, vectors flattened (see InstructionOperand).
  void appendTupleElements(TSNode address, ScopeId scope, InstructionOperand& operand);

  void appendElements(TSNode node, TSFieldId field, ScopeId scope, InstructionOperand& operand);

  // Visits every identifier below `node` (iteratively) as a use.
  void collectUses(TSNode node, ScopeId scope, ReferenceRole role, bool damaged,
                   std::vector<PendingLabel>* pending = nullptr);

  // Records the uses in `node`; for a lone name, returns what it resolves to (else kNoSymbol).
  SymbolId use(TSNode node, ScopeId scope, ReferenceRole role, bool damaged);

  std::size_t addReference(TSNode node, SymbolId target, ReferenceRole role, bool damaged);

  void deferLabel(TSNode node, ScopeId scope, ReferenceRole role, bool damaged,
                  std::vector<PendingLabel>& pending, bool functionsToo);

  void resolveLabels(const std::vector<PendingLabel>& pending);

  std::string_view text_;
  const SyntaxTree& tree_;
  const std::atomic<bool>* stop_ = nullptr;
  std::optional<ByteRange> bodiesWithin_;
  Module module_;
  std::vector<ScopeTable> tables_;
  const SyntaxKinds& k_;
  const SyntaxFields& f_;
  std::vector<TSNode> operandNodes_;  // Scratch space of instruction().
  std::vector<std::optional<SymbolId>> operandSymbols_;  // Their names' lookups, where made.
  // collectUses's stack of nodes to visit, with their field ids (reused).
  std::vector<std::pair<TSNode, TSFieldId>> usesStack_;
  // statements's stack of statements to visit, with their scopes (reused).
  std::vector<std::pair<TSNode, ScopeId>> statementStack_;
  // Declarations pass.
  bool declarationsOnly_ = false;
  std::vector<TSNode> items_;
  std::vector<std::uint32_t> cursorAtItem_;
  // Fragment.
  const ModuleScopeView* view_ = nullptr;
  std::uint32_t moduleCursor_ = 0;  // Module-scope declarations made so far.
};

// Resolves every instruction's spelling into facts, once per distinct spelling.
void resolveSpellings(std::string_view text, Module& module);

// Trims the model's big arrays to their size where more than a sixteenth is spare (a server
// keeps the whole model of every open document).
void releaseSpareCapacity(Module& module);

}  // namespace ptx::modelbuild

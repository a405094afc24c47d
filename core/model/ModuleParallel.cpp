// ModuleParallel: buildModuleParallel. A declarations-only pass records the module-scope
// declarations; groups of consecutive module items are built on separate threads by Builders
// that consult it; the fragments are joined with their ids shifted, giving the module the
// one-pass build gives (tests/analyzers/parallel_lint_test.cpp).
#include "model/ModuleBuilder.h"

#include "support/ParallelFor.h"

namespace ptx {
namespace modelbuild {
namespace {

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
}  // namespace modelbuild

Module buildModuleParallel(std::string_view text, const SyntaxTree& tree, unsigned threads) {
  if (threads <= 1 || ts_node_is_null(tree.root())) return buildModule(text, tree);
  modelbuild::ModuleScopeView view = modelbuild::Builder::declarationsPass(text, tree);
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
    modelbuild::Builder builder(text, tree, view);
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
  Module module = modelbuild::joinFragments(text, view, fragments, firstItems, threads);
  modelbuild::resolveSpellings(text, module);
  return module;
}

}  // namespace ptx

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
  auto symbolIn = [&](std::size_t g, SymbolId id) -> SymbolId {
    if (id == kNoSymbol) return kNoSymbol;
    if ((id & kModuleScopeTag) != 0) return finalOf[id & ~kModuleScopeTag];
    return static_cast<SymbolId>(bases[g].symbols + id);
  };
  auto scopeIn = [&](std::size_t g, ScopeId id) -> ScopeId {
    if (id == kNoScope || id == 0) return id;
    return static_cast<ScopeId>(bases[g].scopes + id - 1);
  };
  // One kind of record at a time, each fragment's list freed once moved: the joined lists and
  // the fragments' then never all stand in memory together (the server's opening analysis of a
  // large document peaked with two copies of its model).
  auto join = [&](auto member, std::size_t Bases::*offset, std::size_t size, auto&& moveOne) {
    (module.*member).resize(size);
    parallelFor(count, threads, [&](std::size_t g) {
      auto& list = fragments[g].*member;
      for (std::size_t i = 0; i < list.size(); ++i) moveOne(g, list[i], (module.*member)[bases[g].*offset + i]);
      std::remove_reference_t<decltype(list)>().swap(list);
    });
  };
  join(&Module::symbols, &Bases::symbols, total.symbols, [&](std::size_t g, Symbol& from, Symbol& to) {
    to = std::move(from);
    to.scope = scopeIn(g, to.scope);
  });
  parallelFor(count, threads, [&](std::size_t g) {
    Module& fragment = fragments[g];
    for (std::size_t i = 1; i < fragment.scopes.size(); ++i) {
      Scope& moved = module.scopes[bases[g].scopes + i - 1] = std::move(fragment.scopes[i]);
      moved.parent = scopeIn(g, moved.parent);
      for (SymbolId& id : moved.symbols) id = symbolIn(g, id);
      for (SymbolId& id : moved.labels) id = symbolIn(g, id);
    }
    std::vector<Scope>().swap(fragment.scopes);
  });
  join(&Module::instructions, &Bases::instructions, total.instructions,
       [&](std::size_t g, const InstructionSite& from, InstructionSite& site) {
         site = from;
         site.firstModifier += static_cast<std::uint32_t>(bases[g].modifiers);
         site.firstOperand += static_cast<std::uint32_t>(bases[g].operands);
         site.scope = scopeIn(g, site.scope);
         site.guardSymbol = symbolIn(g, site.guardSymbol);
         site.callee = symbolIn(g, site.callee);
       });
  join(&Module::modifiers, &Bases::modifiers, total.modifiers,
       [](std::size_t, const ByteRange& from, ByteRange& to) { to = from; });
  join(&Module::operands, &Bases::operands, total.operands,
       [&](std::size_t g, const InstructionOperand& from, InstructionOperand& operand) {
         operand = from;
         operand.symbol = symbolIn(g, operand.symbol);
         if (operand.shape == OperandShape::Vector || operand.shape == OperandShape::PredicatePair) {
           operand.firstElement += static_cast<std::uint32_t>(bases[g].operands);
         }
         if (operand.tupleElementCount > 0) operand.firstTupleElement += static_cast<std::uint32_t>(bases[g].operands);
       });
  join(&Module::references, &Bases::references, total.references,
       [&](std::size_t g, const Reference& from, Reference& reference) {
         reference = from;
         reference.target = symbolIn(g, reference.target);
       });
  join(&Module::functions, &Bases::functions, total.functions,
       [&](std::size_t g, FunctionInfo& from, FunctionInfo& function) {
         function = std::move(from);
         function.symbol = symbolIn(g, function.symbol);
         for (SymbolId& id : function.returns) id = symbolIn(g, id);
         for (SymbolId& id : function.parameters) id = symbolIn(g, id);
         // Only definitions whose body was walked have an instruction range.
         if (function.bodyScope != kNoScope) {
           function.firstInstruction += static_cast<std::uint32_t>(bases[g].instructions);
         }
         function.bodyScope = scopeIn(g, function.bodyScope);
       });
  join(&Module::duplicates, &Bases::duplicates, total.duplicates, [&](std::size_t g, const auto& from, auto& to) {
    to = {symbolIn(g, from.first), symbolIn(g, from.second)};
  });
  for (Module& fragment : fragments) fragment = Module{};
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
  modelbuild::releaseSpareCapacity(module);
  return module;
}

}  // namespace ptx

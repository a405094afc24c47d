// Navigation: symbol lookups over the model.
#include "features/Navigation.h"

#include <algorithm>

namespace ptx::lsp {
namespace {

std::string_view slice(std::string_view text, ByteRange range) {
  return text.substr(range.begin, range.end - range.begin);
}

// The symbol at `offset`, also when the cursor sits just past the name (`%r1|`).
SymbolId symbolNear(const Module& module, std::uint32_t offset) {
  SymbolId id = module.symbolAt(offset);
  if (id == kNoSymbol && offset > 0) id = module.symbolAt(offset - 1);
  return id;
}

// The spelled name under the cursor: a reference or a declaration name.
std::optional<ByteRange> nameRangeNear(const Module& module, std::uint32_t offset) {
  for (std::uint32_t probe : {offset, offset > 0 ? offset - 1 : offset}) {
    // Both lists are ordered by start and their ranges never overlap: the only candidate is
    // the last one starting at or before the probe.
    std::span<const Reference> before = module.referencesWithin({0, probe + 1});
    if (!before.empty() && before.back().range.begin <= probe && probe < before.back().range.end) {
      return before.back().range;
    }
    auto symbol = std::upper_bound(module.symbolsByPosition.begin(), module.symbolsByPosition.end(), probe,
                                   [&](std::uint32_t at, SymbolId id) { return at < module.symbols[id].nameRange.begin; });
    if (symbol != module.symbolsByPosition.begin()) {
      const ByteRange& range = module.symbols[*(symbol - 1)].nameRange;
      if (range.begin <= probe && probe < range.end) return range;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<ByteRange> definitionAt(const Module& module, std::uint32_t offset) {
  SymbolId id = symbolNear(module, offset);
  if (id == kNoSymbol) return std::nullopt;
  return module.symbols[id].nameRange;
}

std::vector<ByteRange> referencesAt(std::string_view text, const Module& module, std::uint32_t offset,
                                    bool includeDeclaration) {
  std::vector<ByteRange> found;
  SymbolId id = symbolNear(module, offset);
  if (id == kNoSymbol) return found;
  const Symbol& symbol = module.symbols[id];
  // In a `%r<N>` range each register is its own name: `%r1` is not a use of `%r2`.
  std::string_view spelled;
  if (symbol.rangeCount != 0) {
    auto under = nameRangeNear(module, offset);
    if (under) spelled = slice(text, *under);
  }
  if (includeDeclaration) found.push_back(symbol.nameRange);
  for (const Reference& reference : module.referencesWithin(module.visibilityOf(id))) {
    if (reference.target != id) continue;
    if (symbol.rangeCount != 0 && !spelled.empty() && slice(text, reference.range) != spelled &&
        spelled != symbol.name) {
      continue;
    }
    found.push_back(reference.range);
  }
  std::sort(found.begin(), found.end(), [](const ByteRange& a, const ByteRange& b) { return a.begin < b.begin; });
  return found;
}

}  // namespace ptx::lsp

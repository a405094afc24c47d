// Module: the model's own queries (position lookups, range matching) and the literal and
// predefined-name helpers the builder and the rules share.
#include <algorithm>
#include <charconv>

#include "isa/IsaReference.h"
#include "model/Module.h"

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

bool Symbol::matches(std::string_view spelled) const {
  if (rangeCount == 0) return spelled == name;
  std::optional<std::uint32_t> index = rangeIndexOf(spelled, name);
  return index && *index < rangeCount;
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

}  // namespace ptx

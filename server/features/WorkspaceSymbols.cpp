// WorkspaceSymbols: collects the module-level symbols of each document and ranks them.
#include "features/WorkspaceSymbols.h"

#include <algorithm>
#include <optional>

namespace ptx::lsp {
namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}

// How well `name` matches `query`: lower is better, nullopt when it does not match. The tiers
// are exact (same case), exact ignoring case, prefix, substring and subsequence; inside the
// subsequence tier fewer gaps between the matched characters rank higher.
std::optional<std::size_t> matchScore(std::string_view name, std::string_view query) {
  constexpr std::size_t kTier = 1u << 20;
  if (query.empty()) return 0;
  if (name == query) return 0;
  if (equalsIgnoringCase(name, query)) return 1 * kTier;
  if (name.size() >= query.size() && equalsIgnoringCase(name.substr(0, query.size()), query)) return 2 * kTier;
  auto found = std::search(name.begin(), name.end(), query.begin(), query.end(),
                           [](char x, char y) { return lower(x) == lower(y); });
  if (found != name.end()) return 3 * kTier + static_cast<std::size_t>(found - name.begin());
  std::size_t gaps = 0;
  std::size_t at = 0;
  for (char wanted : query) {
    std::size_t start = at;
    while (at < name.size() && lower(name[at]) != lower(wanted)) ++at;
    if (at == name.size()) return std::nullopt;
    if (at != start) ++gaps;
    ++at;
  }
  return 4 * kTier + std::min(gaps, kTier - 1);
}

std::string variableDetail(const Symbol& symbol) {
  std::string detail(symbol.space());
  if (!symbol.type.empty()) {
    if (!detail.empty()) detail += ' ';
    detail += symbol.type;
  }
  return detail;
}

struct Candidate {
  WorkspaceSymbolMatch match;
  std::size_t score;
};

}  // namespace

std::vector<WorkspaceSymbolMatch> workspaceSymbols(std::span<const WorkspaceDocument> documents, std::string_view query,
                                                   std::size_t limit) {
  std::vector<Candidate> candidates;
  for (std::size_t d = 0; d < documents.size(); ++d) {
    const Module* module = documents[d].module;
    if (module == nullptr || module->scopes.empty()) continue;
    for (SymbolId id : module->scopes[0].symbols) {
      const Symbol& symbol = module->symbols[id];
      if (symbol.kind != SymbolKind::Function && symbol.kind != SymbolKind::Variable) continue;
      if (symbol.kind == SymbolKind::Function && !symbol.hasBody) {
        bool defined = std::any_of(module->scopes[0].symbols.begin(), module->scopes[0].symbols.end(), [&](SymbolId other) {
          const Symbol& candidate = module->symbols[other];
          return candidate.kind == SymbolKind::Function && candidate.hasBody && candidate.name == symbol.name;
        });
        if (defined) continue;
      }
      auto score = matchScore(symbol.name, query);
      if (!score) continue;
      WorkspaceSymbolMatch match;
      match.name = symbol.name;
      match.kind = symbol.kind == SymbolKind::Variable ? OutlineKind::Variable
                   : symbol.isEntry                    ? OutlineKind::Kernel
                                                       : OutlineKind::Function;
      match.detail = symbol.kind == SymbolKind::Variable
                         ? variableDetail(symbol)
                         : std::string(spellingOf(symbol.isEntry ? Modifier::Entry : Modifier::Func));
      match.uri = documents[d].uri;
      match.range = symbol.declarationRange;
      match.selectionRange = symbol.nameRange;
      candidates.push_back({std::move(match), *score});
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(), [&](const Candidate& a, const Candidate& b) {
    if (query.empty()) return false;  // Document and source order.
    if (a.score != b.score) return a.score < b.score;
    if (a.match.name.size() != b.match.name.size()) return a.match.name.size() < b.match.name.size();
    if (a.match.uri != b.match.uri) return a.match.uri < b.match.uri;
    return a.match.selectionRange.begin < b.match.selectionRange.begin;
  });
  if (limit != 0 && candidates.size() > limit) candidates.resize(limit);
  std::vector<WorkspaceSymbolMatch> matches;
  matches.reserve(candidates.size());
  for (Candidate& candidate : candidates) matches.push_back(std::move(candidate.match));
  return matches;
}

}  // namespace ptx::lsp

// Rename: finds the symbol's group (declarations sharing a name in one scope), checks the new
// name, simulates name resolution for every use spelled with the old or the new name, and
// emits one edit per declaration and use.
#include "features/Rename.h"

#include <algorithm>
#include <charconv>
#include <initializer_list>

#include "isa/IsaReference.h"

namespace ptx::lsp {
namespace {

std::string_view slice(std::string_view text, ByteRange range) {
  return text.substr(range.begin, range.end - range.begin);
}

// Messages are joined piece by piece: GCC 12 warns (-Wrestrict, a false positive) on
// `"'" + std::string(...)`.
std::string concat(std::initializer_list<std::string_view> parts) {
  std::string joined;
  for (std::string_view part : parts) joined += part;
  return joined;
}

std::string lineOf(std::string_view text, std::uint32_t offset) {
  return std::to_string(1 + std::count(text.begin(), text.begin() + offset, '\n'));
}

bool contains(ByteRange range, std::uint32_t offset) { return range.begin <= offset && offset < range.end; }

struct NameAt {
  ByteRange range;
  SymbolId target = kNoSymbol;
};

// The reference or declaring name at `offset`, also with the cursor just past it (`%r1|`).
std::optional<NameAt> nameAt(const Module& module, std::uint32_t offset) {
  for (std::uint32_t probe : {offset, offset > 0 ? offset - 1 : offset}) {
    auto reference = std::upper_bound(module.references.begin(), module.references.end(), probe,
                                      [](std::uint32_t at, const Reference& r) { return at < r.range.begin; });
    if (reference != module.references.begin() && contains(std::prev(reference)->range, probe)) {
      return NameAt{std::prev(reference)->range, std::prev(reference)->target};
    }
    auto symbol = std::upper_bound(module.symbolsByPosition.begin(), module.symbolsByPosition.end(), probe,
                                   [&](std::uint32_t at, SymbolId id) { return at < module.symbols[id].nameRange.begin; });
    if (symbol != module.symbolsByPosition.begin() && contains(module.symbols[*std::prev(symbol)].nameRange, probe)) {
      return NameAt{module.symbols[*std::prev(symbol)].nameRange, *std::prev(symbol)};
    }
  }
  return std::nullopt;
}

// The innermost scope holding `offset` (scopes are created in source order, so their
// starts ascend).
ScopeId scopeAt(const Module& module, std::uint32_t offset) {
  if (module.scopes.empty()) return kNoScope;
  auto after = std::upper_bound(module.scopes.begin(), module.scopes.end(), offset,
                                [](std::uint32_t at, const Scope& scope) { return at < scope.range.begin; });
  auto scope = static_cast<ScopeId>(std::max<std::ptrdiff_t>(after - module.scopes.begin() - 1, 0));
  while (scope != kNoScope && !contains(module.scopes[scope].range, offset)) scope = module.scopes[scope].parent;
  return scope == kNoScope ? 0 : scope;
}

// The index in `spelled` after a range's prefix (`%r12` → 12), as the model reads it.
std::optional<std::uint32_t> indexAfter(std::string_view spelled, std::string_view prefix) {
  if (spelled.size() <= prefix.size() || !spelled.starts_with(prefix)) return std::nullopt;
  std::string_view digits = spelled.substr(prefix.size());
  if (digits.size() > 1 && digits[0] == '0') return std::nullopt;
  std::uint32_t index = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return index;
}

// Whether a declaration named `name` (a prefix when `count` > 0) declares `spelled`.
bool declares(std::string_view name, std::uint32_t count, std::string_view spelled) {
  if (count == 0) return spelled == name;
  auto index = indexAfter(spelled, name);
  return index && *index < count;
}

// Range families are compared on their first members only; past that a clash would need
// absurd names (`%x1<10>` against `%x<200>`).
constexpr std::uint32_t kFamilyProbe = 1024;

// Whether two declarations have a name in common.
bool overlap(std::string_view a, std::uint32_t aCount, std::string_view b, std::uint32_t bCount) {
  if (aCount == 0) return declares(b, bCount, a);
  if (bCount == 0) return declares(a, aCount, b);
  if (a == b) return true;
  for (std::uint32_t i = 0; i < std::min(aCount, kFamilyProbe); ++i) {
    if (declares(b, bCount, std::string(a) + std::to_string(i))) return true;
  }
  for (std::uint32_t i = 0; i < std::min(bCount, kFamilyProbe); ++i) {
    if (declares(a, aCount, std::string(b) + std::to_string(i))) return true;
  }
  return false;
}

bool isFollowCharacter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

// Resolves names the way the model does, over a few candidate declarations, before or after
// the rename.
class Resolver {
 public:
  Resolver(std::string_view text, const Module& module, const std::vector<SymbolId>& group,
           std::vector<SymbolId> candidates, std::string_view newName)
      : text_(text), module_(module), group_(group), candidates_(std::move(candidates)), newName_(newName) {}

  bool inGroup(SymbolId id) const { return std::find(group_.begin(), group_.end(), id) != group_.end(); }

  // The declaration `spelled` at `reference` names, with the group renamed or not. Labels
  // are found anywhere in their block; everything else only once declared. Names that are
  // not guards, callees or initializers fall back to labels, as branch targets do.
  SymbolId resolve(const Reference& reference, std::string_view spelled, bool renamed) const {
    ScopeId scope = scopeAt(module_, reference.range.begin);
    bool labelsToo = reference.role != ReferenceRole::Guard && reference.role != ReferenceRole::Callee &&
                     reference.role != ReferenceRole::Initializer;
    for (bool labels : {false, true}) {
      if (labels && !labelsToo) break;
      for (ScopeId s = scope; s != kNoScope; s = module_.scopes[s].parent) {
        if (labels && s == 0) break;  // Labels live in function bodies only.
        for (SymbolId id : candidates_) {
          const Symbol& symbol = module_.symbols[id];
          if (symbol.scope != s || (symbol.kind == SymbolKind::Label) != labels) continue;
          if (!labels && symbol.nameRange.begin >= reference.range.begin) continue;
          std::string_view name = renamed && inGroup(id) ? newName_ : std::string_view(symbol.name);
          if (declares(name, symbol.rangeCount, spelled)) return id;
        }
      }
    }
    return kNoSymbol;
  }

 private:
  std::string_view text_;
  const Module& module_;
  const std::vector<SymbolId>& group_;
  std::vector<SymbolId> candidates_;
  std::string_view newName_;
};

std::string describe(std::string_view text, const Module& module, SymbolId id) {
  const Symbol& symbol = module.symbols[id];
  std::string what(toString(symbol.kind));
  what += " '";
  what += symbol.name;
  if (symbol.rangeCount != 0) {
    what += '<';
    what += std::to_string(symbol.rangeCount);
    what += '>';
  }
  what += "' at line ";
  what += lineOf(text, symbol.nameRange.begin);
  return what;
}

// Why `newName` cannot name `symbol`, or empty when it can.
std::string checkNewName(const Symbol& symbol, std::string_view newName) {
  std::string quoted = concat({"'", newName, "'"});
  if (symbol.rangeCount != 0) {
    // The new prefix must make identifiers with every index appended.
    if (!isPtxIdentifier(std::string(newName) + "0")) {
      return quoted + " is not a register name prefix: it must be an identifier that a number can follow";
    }
    for (std::uint32_t i = 0; i < std::min<std::uint32_t>(symbol.rangeCount, 64); ++i) {
      std::string member = std::string(newName) + std::to_string(i);
      if (isPredefinedName(member)) return concat({"'", member, "' would be a special register's name"});
    }
    return {};
  }
  if (!isPtxIdentifier(newName)) {
    return quoted + " is not a PTX identifier: it must be a letter followed by letters, digits, '_' or '$', or '_', '$' or '%' followed by at least one of them";
  }
  if (isPredefinedName(newName)) return quoted + " is the name of a special register";
  // `%` is only nvcc's convention for registers: `.reg .b32 x` (a .func parameter, say) is
  // just as valid, so a register may be renamed either way.
  if (!symbol.isRegister() && findOpcode(newName) != nullptr) return quoted + " is a reserved instruction name";
  return {};
}

}  // namespace

bool isPtxIdentifier(std::string_view name) {
  if (name.empty()) return false;
  char first = name[0];
  bool letter = (first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z');
  if (!letter && first != '_' && first != '$' && first != '%') return false;
  if (!letter && name.size() < 2) return false;
  return std::all_of(name.begin() + 1, name.end(), isFollowCharacter);
}

std::optional<ByteRange> prepareRename(std::string_view text, const Module& module, std::uint32_t offset) {
  auto at = nameAt(module, offset);
  if (!at || at->target == kNoSymbol) return std::nullopt;
  const Symbol& symbol = module.symbols[at->target];
  if (symbol.rangeCount == 0) return at->range;
  // A member of a `%r<N>` family: the prefix is what a rename replaces.
  if (!slice(text, at->range).starts_with(symbol.name)) return std::nullopt;
  return ByteRange{at->range.begin, at->range.begin + static_cast<std::uint32_t>(symbol.name.size())};
}

RenameResult rename(std::string_view text, const Module& module, std::uint32_t offset, std::string_view newName) {
  RenameResult result;
  auto at = nameAt(module, offset);
  if (!at || at->target == kNoSymbol) {
    result.error = "there is no renameable symbol here";
    return result;
  }
  const SymbolId target = at->target;
  const Symbol& symbol = module.symbols[target];
  if (newName == symbol.name) return result;
  result.error = checkNewName(symbol, newName);
  if (!result.error.empty()) return result;

  // The group: a prototype and its definition, `.extern` and defining declarations, repeated
  // declarations of one scope — everything the model may resolve this name to here.
  std::vector<SymbolId> group;
  for (SymbolId id : module.scopes[symbol.scope].symbols) {
    const Symbol& other = module.symbols[id];
    if (other.name == symbol.name && other.kind == symbol.kind && other.rangeCount == symbol.rangeCount) group.push_back(id);
  }
  for (SymbolId id : module.scopes[symbol.scope].labels) {
    if (module.symbols[id].name == symbol.name && symbol.kind == SymbolKind::Label) group.push_back(id);
  }
  if (std::find(group.begin(), group.end(), target) == group.end()) group.push_back(target);

  // A declaration in the same scope that already has the new name.
  auto sharesNewName = [&](const Symbol& other) { return overlap(newName, symbol.rangeCount, other.name, other.rangeCount); };
  std::vector<SymbolId> candidates = group;
  for (SymbolId id = 0; id < module.symbols.size(); ++id) {
    if (std::find(group.begin(), group.end(), id) != group.end()) continue;
    const Symbol& other = module.symbols[id];
    bool oldClash = overlap(symbol.name, symbol.rangeCount, other.name, other.rangeCount);
    bool newClash = sharesNewName(other);
    if (!oldClash && !newClash) continue;
    candidates.push_back(id);
    if (newClash && other.scope == symbol.scope) {
      result.error = concat({"'", newName, "' is already declared in this scope: ", describe(text, module, id)});
      return result;
    }
  }
  Resolver resolver(text, module, group, candidates, newName);

  std::string_view oldName = symbol.name;
  auto renamedSpelling = [&](std::string_view spelled) { return concat({newName, spelled.substr(oldName.size())}); };
  for (const Reference& reference : module.references) {
    std::string_view spelled = slice(text, reference.range);
    if (resolver.inGroup(reference.target)) {
      // Every use must still reach the renamed declaration, not a nearer one with the new name.
      std::string after = renamedSpelling(spelled);
      SymbolId now = resolver.resolve(reference, after, true);
      if (now != kNoSymbol && !resolver.inGroup(now)) {
        result.error = concat({"renaming would make the use of '", spelled, "' at line ", lineOf(text, reference.range.begin),
                               " refer to the ", describe(text, module, now)});
        result.edits.clear();
        return result;
      }
      result.edits.push_back({{reference.range.begin, reference.range.begin + static_cast<std::uint32_t>(oldName.size())},
                              std::string(newName)});
    } else if (reference.target != kNoSymbol && declares(newName, symbol.rangeCount, spelled)) {
      // A use of another declaration must not be captured by the renamed one.
      if (resolver.inGroup(resolver.resolve(reference, spelled, true))) {
        result.error = concat({"'", newName, "' would hide the ", describe(text, module, reference.target),
                               " from its use at line ", lineOf(text, reference.range.begin)});
        result.edits.clear();
        return result;
      }
    }
  }
  for (SymbolId id : group) {
    ByteRange name = module.symbols[id].nameRange;
    result.edits.push_back({{name.begin, name.begin + static_cast<std::uint32_t>(oldName.size())}, std::string(newName)});
  }
  std::sort(result.edits.begin(), result.edits.end(),
            [](const FixEdit& a, const FixEdit& b) { return a.range.begin < b.range.begin; });
  result.edits.erase(std::unique(result.edits.begin(), result.edits.end()), result.edits.end());
  return result;
}

}  // namespace ptx::lsp

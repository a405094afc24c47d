#include "isa/InstructionFacts.h"

#include "isa/IsaReference.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace ptx {
namespace {

constexpr std::string_view kFamilyNames[] = {
#define PTX_FAMILY(id, name) #name,
#include "isa/Families.def"
#undef PTX_FAMILY
};
constexpr std::size_t kFamilyCount = std::size(kFamilyNames);

constexpr std::string_view kModifierSpellings[] = {
    "",
#define PTX_MODIFIER(id, spelling) spelling,
#include "isa/Modifiers.def"
#undef PTX_MODIFIER
};
constexpr std::size_t kModifierCount = std::size(kModifierSpellings);

// What a spelling means, worked out from the spelling itself: this is the one place where the
// text of types, spaces, scopes and semantics is read.
ModifierInfo describe(std::string_view spelling) {
  ModifierInfo info;
  info.spelling = spelling;
  static constexpr std::pair<std::string_view, StateSpace> kSpaces[] = {
      {".reg", StateSpace::Reg},         {".sreg", StateSpace::Sreg},
      {".const", StateSpace::Const},     {".global", StateSpace::Global},
      {".local", StateSpace::Local},     {".param", StateSpace::Param},
      {".param::entry", StateSpace::Param}, {".param::func", StateSpace::Param},
      {".shared", StateSpace::Shared},   {".shared::cta", StateSpace::Shared},
      {".shared::cluster", StateSpace::SharedCluster}, {".tex", StateSpace::Tex},
      {".surf", StateSpace::Surf}};
  for (auto [s, space] : kSpaces) {
    if (spelling == s) info.space = space;
  }
  static constexpr std::pair<std::string_view, MemoryScope> kScopes[] = {
      {".cta", MemoryScope::Cta}, {".cluster", MemoryScope::Cluster}, {".gpu", MemoryScope::Gpu}, {".sys", MemoryScope::Sys}};
  for (auto [s, scope] : kScopes) {
    if (spelling == s) info.scope = scope;
  }
  static constexpr std::pair<std::string_view, Semantics> kSemantics[] = {
      {".relaxed", Semantics::Relaxed}, {".acquire", Semantics::Acquire}, {".release", Semantics::Release},
      {".acq_rel", Semantics::AcqRel},  {".volatile", Semantics::Volatile}, {".mmio", Semantics::Mmio},
      {".sc", Semantics::Sc}};
  for (auto [s, semantics] : kSemantics) {
    if (spelling == s) info.semantics = semantics;
  }
  if (spelling == ".v2") info.vectorWidth = 2;
  if (spelling == ".v4") info.vectorWidth = 4;
  if (spelling == ".v8") info.vectorWidth = 8;
  if (spelling == ".pred") info.typeClass = TypeClass::Predicate;
  // Packed and narrow floating-point types (their bytes are the whole packed value).
  static constexpr std::pair<std::string_view, std::uint8_t> kPackedFloats[] = {
      {".f16x2", 4}, {".bf16x2", 4}, {".e4m3x2", 2}, {".e5m2x2", 2}, {".e2m3x2", 2}, {".e3m2x2", 2},
      {".e2m1x2", 1}, {".ue8m0x2", 2}, {".tf32", 4}, {".bf16", 2}, {".e4m3", 1}, {".e5m2", 1}};
  for (auto [s, bytes] : kPackedFloats) {
    if (spelling == s) {
      info.typeClass = TypeClass::Float;
      info.typeBytes = bytes;
      return info;
    }
  }
  if (spelling.size() >= 3 && spelling[0] == '.') {
    char kind = spelling[1];
    std::uint32_t bits = 0;
    auto [end, error] = std::from_chars(spelling.data() + 2, spelling.data() + spelling.size(), bits);
    bool sized = error == std::errc() && end == spelling.data() + spelling.size() &&
                 (bits == 8 || bits == 16 || bits == 32 || bits == 64 || bits == 128);
    if (sized && (kind == 'b' || kind == 'u' || kind == 's' || kind == 'f')) {
      info.typeClass = kind == 'b'   ? TypeClass::Bits
                       : kind == 'u' ? TypeClass::Unsigned
                       : kind == 's' ? TypeClass::Signed
                                     : TypeClass::Float;
      info.typeBytes = static_cast<std::uint8_t>(bits / 8);
    }
  }
  return info;
}

const std::array<ModifierInfo, kModifierCount>& modifierInfos() {
  static const std::array<ModifierInfo, kModifierCount> infos = [] {
    std::array<ModifierInfo, kModifierCount> all{};
    for (std::size_t i = 1; i < kModifierCount; ++i) all[i] = describe(kModifierSpellings[i]);
    return all;
  }();
  return infos;
}

const std::unordered_map<std::string_view, Modifier>& modifierIndex() {
  static const std::unordered_map<std::string_view, Modifier> index = [] {
    std::unordered_map<std::string_view, Modifier> map;
    map.reserve(kModifierCount * 2);
    for (std::size_t i = 1; i < kModifierCount; ++i) map.emplace(kModifierSpellings[i], static_cast<Modifier>(i));
    return map;
  }();
  return index;
}

// ---- Effects.def ----

struct EffectRow {
  std::vector<Modifier> required;
  std::vector<Modifier> forbidden;
  Effects effects = 0;
};

struct EffectsTable {
  std::array<std::vector<EffectRow>, kFamilyCount + 1> rows;
  std::vector<std::string> errors;
};

constexpr std::pair<std::string_view, Effect> kEffectNames[] = {
    {"reads-memory", kReadsMemory},
    {"writes-memory", kWritesMemory},
    {"atomic", kAtomic},
    {"async-proxy", kAsyncProxy},
    {"completes-on-mbarrier", kCompletesOnMbarrier},
    {"completes-in-bulk-group", kCompletesInBulkGroup},
    {"completes-in-async-group", kCompletesInAsyncGroup},
    {"commits-group", kCommitsGroup},
    {"waits-for-group", kWaitsForGroup},
    {"cta-barrier", kCtaBarrier},
    {"barrier-arrive", kBarrierArrive},
    {"cluster-barrier", kClusterBarrier},
    {"warp-barrier", kWarpBarrier},
    {"fence", kFence},
    {"proxy-fence", kProxyFence},
    {"branch", kBranch},
    {"indirect-branch", kIndirectBranch},
    {"call", kCall},
    {"return", kReturn},
    {"exit", kExit},
    {"trap", kTrap},
    {"no-destination", kNoDestination},
    {"warp-collective", kWarpCollective},
    {"mbarrier-operation", kMbarrierOperation},
    {"prefetch", kPrefetch},
    {"texture-access", kTextureAccess},
    {"warpgroup-mma", kWarpgroupMma},
    {"completes-in-wgmma-group", kCompletesInWgmmaGroup},
    {"mbarrier-arrive", kMbarrierArrive},
    {"mbarrier-expect-tx", kMbarrierExpectTx},
    {"mbarrier-wait", kMbarrierWait},
};

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    std::size_t start = i;
    while (i < text.size() && text[i] != ' ') ++i;
    if (i > start) out.push_back(text.substr(start, i - start));
  }
  return out;
}

const EffectsTable& effectsTable() {
  static const EffectsTable table = [] {
    EffectsTable t;
    struct Raw {
      Family family;
      std::string_view modifiers;
      std::string_view effects;
    };
    static constexpr Raw kRaw[] = {
#define PTX_EFFECTS(family, modifiers, effects) {Family::family, modifiers, effects},
#include "isa/Effects.def"
#undef PTX_EFFECTS
    };
    for (const Raw& raw : kRaw) {
      EffectRow row;
      std::string where = std::string(nameOf(raw.family)) + " \"" + std::string(raw.modifiers) + "\"";
      for (std::string_view word : words(raw.modifiers)) {
        bool negated = word.starts_with('!');
        if (negated) word.remove_prefix(1);
        Modifier m = modifierNamed(word);
        if (m == Modifier::Unknown) t.errors.push_back(where + ": unknown modifier " + std::string(word));
        (negated ? row.forbidden : row.required).push_back(m);
      }
      for (std::string_view word : words(raw.effects)) {
        auto found = std::find_if(std::begin(kEffectNames), std::end(kEffectNames),
                                  [&](const auto& named) { return named.first == word; });
        if (found == std::end(kEffectNames)) {
          t.errors.push_back(where + ": unknown effect " + std::string(word));
        } else {
          row.effects |= found->second;
        }
      }
      t.rows[static_cast<std::size_t>(raw.family)].push_back(std::move(row));
    }
    return t;
  }();
  return table;
}

}  // namespace

Family familyNamed(std::string_view name) {
  auto it = std::lower_bound(std::begin(kFamilyNames), std::end(kFamilyNames), name);
  if (it == std::end(kFamilyNames) || *it != name) return Family::Unknown;
  return static_cast<Family>(it - std::begin(kFamilyNames));
}

std::string_view nameOf(Family family) {
  auto i = static_cast<std::size_t>(family);
  return i < kFamilyCount ? kFamilyNames[i] : std::string_view{};
}

Modifier modifierNamed(std::string_view spelling) {
  const auto& index = modifierIndex();
  auto it = index.find(spelling);
  return it == index.end() ? Modifier::Unknown : it->second;
}

std::string_view spellingOf(Modifier modifier) {
  auto i = static_cast<std::size_t>(modifier);
  return i < kModifierCount ? kModifierSpellings[i] : std::string_view{};
}

const ModifierInfo& infoOf(Modifier modifier) {
  auto i = static_cast<std::size_t>(modifier);
  return modifierInfos()[i < kModifierCount ? i : 0];
}

bool InstructionFacts::has(Modifier m) const {
  return std::find(modifiers.begin(), modifiers.end(), m) != modifiers.end();
}

bool InstructionFacts::hasAny(std::initializer_list<Modifier> ms) const {
  return std::any_of(ms.begin(), ms.end(), [&](Modifier m) { return has(m); });
}

std::optional<std::uint32_t> InstructionFacts::typeBytes() const {
  std::uint8_t bytes = infoOf(type).typeBytes;
  if (bytes == 0) return std::nullopt;
  return bytes;
}

std::optional<std::uint64_t> InstructionFacts::accessBytes() const {
  auto bytes = typeBytes();
  if (!bytes) return std::nullopt;
  return std::uint64_t{vectorWidth} * *bytes;
}

InstructionFacts resolveFacts(std::string_view opcode, std::span<const std::string_view> modifiers) {
  InstructionFacts facts;
  facts.family = familyNamed(opcode);
  facts.opcode = findOpcode(opcode);
  facts.modifiers.reserve(modifiers.size());
  for (std::string_view spelling : modifiers) {
    Modifier m = modifierNamed(spelling);
    facts.modifiers.push_back(m);
    const ModifierInfo& info = infoOf(m);
    if (info.space != StateSpace::None) {
      if (facts.space == StateSpace::None) {
        facts.space = info.space;
      } else if (facts.secondSpace == StateSpace::None) {
        facts.secondSpace = info.space;
      }
    }
    if (info.scope != MemoryScope::None && facts.scope == MemoryScope::None) facts.scope = info.scope;
    if (info.semantics != Semantics::None && facts.semantics == Semantics::None) facts.semantics = info.semantics;
    if (info.vectorWidth != 0) facts.vectorWidth = info.vectorWidth;
    if (info.typeBytes != 0) facts.type = m;
  }
  if (facts.family != Family::Unknown) {
    for (const EffectRow& row : effectsTable().rows[static_cast<std::size_t>(facts.family)]) {
      bool matches = std::all_of(row.required.begin(), row.required.end(), [&](Modifier m) { return facts.has(m); }) &&
                     std::none_of(row.forbidden.begin(), row.forbidden.end(), [&](Modifier m) { return facts.has(m); });
      if (matches) facts.effects |= row.effects;
    }
  }
  return facts;
}

const std::vector<std::string>& effectsTableErrors() { return effectsTable().errors; }

}  // namespace ptx

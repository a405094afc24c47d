// IsaReference: expands the .def files into sorted tables and looks entries up.
#include "isa/IsaReference.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "support/PlainIndex.h"

namespace ptx {
namespace {

constexpr OpcodeInfo kOpcodes[] = {
#define PTX_OPCODE(name, summary, syntax, operands, major, minor, target, flags) \
  OpcodeInfo{#name, summary, syntax, operands, PtxVersion{major, minor}, target, flags},
#include "isa/Opcodes.def"
#undef PTX_OPCODE
};

constexpr DirectiveInfo kDirectives[] = {
#define PTX_DIRECTIVE(name, summary, syntax, major, minor, target) \
  DirectiveInfo{name, summary, syntax, PtxVersion{major, minor}, target},
#include "isa/Directives.def"
#undef PTX_DIRECTIVE
};

constexpr SpecialRegisterInfo kSpecialRegisters[] = {
#define PTX_SPECIAL_REGISTER(name, summary, type, major, minor, target) \
  SpecialRegisterInfo{name, summary, type, PtxVersion{major, minor}, target},
#include "isa/SpecialRegisters.def"
#undef PTX_SPECIAL_REGISTER
};

constexpr TypeInfo kTypes[] = {
#define PTX_TYPE(name, summary, bits, major, minor, target) \
  TypeInfo{name, summary, bits, PtxVersion{major, minor}, target},
#include "isa/Types.def"
#undef PTX_TYPE
};

constexpr StateSpaceInfo kStateSpaces[] = {
#define PTX_STATE_SPACE(name, summary, addressable, access) \
  StateSpaceInfo{name, summary, addressable, access},
#include "isa/StateSpaces.def"
#undef PTX_STATE_SPACE
};

// A table's entries by name, hashed once: the model builder asks for the opcode and every
// type of every instruction. The first entry of a name wins, as a search in order finds it.
template <typename T>
class NameIndex {
 public:
  template <std::size_t N>
  explicit NameIndex(const T (&table)[N]) {
    for (const T& entry : table) byName_.try_emplace(entry.name, &entry);
  }
  const T* find(std::string_view name) const {
    auto it = byName_.find(name);
    return it == byName_.end() ? nullptr : it->second;
  }

 private:
  std::unordered_map<std::string_view, const T*> byName_;
};

}  // namespace

std::span<const OpcodeInfo> allOpcodes() { return kOpcodes; }
std::span<const DirectiveInfo> allDirectives() { return kDirectives; }
std::span<const SpecialRegisterInfo> allSpecialRegisters() { return kSpecialRegisters; }
std::span<const TypeInfo> allTypes() { return kTypes; }
std::span<const StateSpaceInfo> allStateSpaces() { return kStateSpaces; }

const OpcodeInfo* findOpcode(std::string_view name) {
  static const NameIndex<OpcodeInfo> index(kOpcodes);
  return index.find(name);
}

const DirectiveInfo* findDirective(std::string_view name) {
  static const NameIndex<DirectiveInfo> index(kDirectives);
  return index.find(name);
}
const TypeInfo* findType(std::string_view name) {
  static const NameIndex<TypeInfo> index(kTypes);
  return index.find(name);
}
const StateSpaceInfo* findStateSpace(std::string_view name) {
  static const NameIndex<StateSpaceInfo> index(kStateSpaces);
  return index.find(name);
}

namespace {

// A numbered family of special registers, listed as "%first..%last" (%envreg0..%envreg31,
// %pm0_64..%pm7_64): names with its prefix and suffix and a number in [low, high].
struct NumberedFamily {
  std::string_view prefix;
  std::string_view suffix;
  std::uint32_t low = 0;
  std::uint32_t high = 0;
  const SpecialRegisterInfo* entry = nullptr;
};

// The number between `prefix` and `suffix` in `spelled` (which has both): a plain index.
bool numberBetween(std::string_view spelled, std::size_t prefix, std::size_t suffix, std::uint32_t& value) {
  std::optional<std::uint32_t> number = parsePlainIndex(spelled.substr(prefix, spelled.size() - prefix - suffix));
  if (number) value = *number;
  return number.has_value();
}

// Read from the table once: unresolved names (labels used before their definition) are asked
// about on every use.
std::vector<NumberedFamily> numberedFamilies() {
  std::vector<NumberedFamily> families;
  for (const SpecialRegisterInfo& entry : kSpecialRegisters) {
    auto dots = entry.name.find("..");
    if (dots == std::string_view::npos) continue;
    std::string_view first = entry.name.substr(0, dots);
    std::string_view last = entry.name.substr(dots + 2);
    std::size_t digit = first.find_first_of("0123456789");
    if (digit == std::string_view::npos) continue;
    std::size_t digitsEnd = first.find_first_not_of("0123456789", digit);
    NumberedFamily family;
    family.prefix = first.substr(0, digit);
    family.suffix = digitsEnd == std::string_view::npos ? "" : first.substr(digitsEnd);
    family.entry = &entry;
    std::size_t prefix = family.prefix.size();
    std::size_t suffix = family.suffix.size();
    if (first.size() <= prefix + suffix || last.size() <= prefix + suffix ||
        !numberBetween(first, prefix, suffix, family.low) || !numberBetween(last, prefix, suffix, family.high)) {
      continue;
    }
    families.push_back(family);
  }
  return families;
}

}  // namespace

const SpecialRegisterInfo* findSpecialRegister(std::string_view name) {
  static const NameIndex<SpecialRegisterInfo> index(kSpecialRegisters);
  static const std::vector<NumberedFamily> families = numberedFamilies();
  if (const SpecialRegisterInfo* exact = index.find(name)) return exact;
  for (const NumberedFamily& family : families) {
    std::size_t prefix = family.prefix.size();
    std::size_t suffix = family.suffix.size();
    if (name.size() <= prefix + suffix || !name.starts_with(family.prefix) || !name.ends_with(family.suffix)) continue;
    std::uint32_t value = 0;
    if (numberBetween(name, prefix, suffix, value) && family.low <= value && value <= family.high) return family.entry;
  }
  return nullptr;
}

bool parseTargetArch(std::string_view spelled, TargetArch& arch) {
  if (!spelled.starts_with("sm_")) return false;
  std::string_view rest = spelled.substr(3);
  auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), arch.number);
  if (error != std::errc()) return false;
  std::string_view suffix = rest.substr(static_cast<std::size_t>(end - rest.data()));
  if (suffix.empty()) {
    arch.suffix = 0;
  } else if (suffix == "a" || suffix == "f") {
    arch.suffix = suffix[0];
  } else {
    return false;
  }
  return true;
}

}  // namespace ptx

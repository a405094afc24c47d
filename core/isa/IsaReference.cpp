// IsaReference: expands the .def files into sorted tables and looks entries up.
#include "isa/IsaReference.h"

#include <algorithm>
#include <array>
#include <charconv>

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

template <typename T, std::size_t N>
const T* findByName(const T (&table)[N], std::string_view name) {
  auto it = std::find_if(std::begin(table), std::end(table),
                         [&](const T& entry) { return entry.name == name; });
  return it == std::end(table) ? nullptr : &*it;
}

}  // namespace

std::span<const OpcodeInfo> allOpcodes() { return kOpcodes; }
std::span<const DirectiveInfo> allDirectives() { return kDirectives; }
std::span<const SpecialRegisterInfo> allSpecialRegisters() { return kSpecialRegisters; }
std::span<const TypeInfo> allTypes() { return kTypes; }
std::span<const StateSpaceInfo> allStateSpaces() { return kStateSpaces; }

const OpcodeInfo* findOpcode(std::string_view name) {
  // The table is sorted by name (a test checks it), so this is a binary search.
  auto it = std::lower_bound(std::begin(kOpcodes), std::end(kOpcodes), name,
                             [](const OpcodeInfo& entry, std::string_view key) { return entry.name < key; });
  return it != std::end(kOpcodes) && it->name == name ? &*it : nullptr;
}

const DirectiveInfo* findDirective(std::string_view name) { return findByName(kDirectives, name); }
const TypeInfo* findType(std::string_view name) { return findByName(kTypes, name); }
const StateSpaceInfo* findStateSpace(std::string_view name) { return findByName(kStateSpaces, name); }

const SpecialRegisterInfo* findSpecialRegister(std::string_view name) {
  if (const SpecialRegisterInfo* exact = findByName(kSpecialRegisters, name)) return exact;
  // Numbered families are listed as "%first..%last" (%envreg0..%envreg31, %pm0_64..%pm7_64):
  // the name must share the prefix and suffix and its number must lie in the range.
  for (const SpecialRegisterInfo& entry : kSpecialRegisters) {
    auto dots = entry.name.find("..");
    if (dots == std::string_view::npos) continue;
    std::string_view first = entry.name.substr(0, dots);
    std::string_view last = entry.name.substr(dots + 2);
    std::size_t digit = first.find_first_of("0123456789");
    if (digit == std::string_view::npos) continue;
    std::string_view prefix = first.substr(0, digit);
    std::size_t digitsEnd = first.find_first_not_of("0123456789", digit);
    std::string_view suffix = digitsEnd == std::string_view::npos ? "" : first.substr(digitsEnd);
    if (!name.starts_with(prefix) || !name.ends_with(suffix) ||
        name.size() <= prefix.size() + suffix.size()) {
      continue;
    }
    auto numberIn = [&](std::string_view spelled, std::uint32_t& value) {
      std::string_view digits = spelled.substr(prefix.size(), spelled.size() - prefix.size() - suffix.size());
      if (digits.empty() || (digits.size() > 1 && digits[0] == '0')) return false;
      auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      return error == std::errc() && end == digits.data() + digits.size();
    };
    std::uint32_t low = 0;
    std::uint32_t high = 0;
    std::uint32_t value = 0;
    if (numberIn(first, low) && numberIn(last, high) && numberIn(name, value) && low <= value &&
        value <= high) {
      return &entry;
    }
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

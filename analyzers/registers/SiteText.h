// SiteText: reading an instruction's spelled parts back from the text, shared by the register
// layer (RegisterPressure, Schedule, RegisterReport), which looks at opcodes and modifiers
// rather than at the ISA tables.
#pragma once

#include <string_view>

#include "model/Module.h"

namespace ptx::registers {

// The text of a range; empty when the range does not fit the text.
inline std::string_view slice(std::string_view text, ByteRange range) {
  if (range.begin > range.end || range.end > text.size()) return {};
  return text.substr(range.begin, range.end - range.begin);
}

// Whether one of the instruction's modifiers is `name` (".global").
inline bool hasModifier(std::string_view text, const Module& module, const InstructionSite& site,
                        std::string_view name) {
  for (std::uint32_t m = site.firstModifier; m < site.firstModifier + site.modifierCount; ++m) {
    if (slice(text, module.modifiers[m]) == name) return true;
  }
  return false;
}

// Whether one of the instruction's modifiers starts with `prefix` (".shared" for
// .shared::cta and .shared::cluster too).
inline bool hasModifierPrefix(std::string_view text, const Module& module, const InstructionSite& site,
                              std::string_view prefix) {
  for (std::uint32_t m = site.firstModifier; m < site.firstModifier + site.modifierCount; ++m) {
    if (slice(text, module.modifiers[m]).starts_with(prefix)) return true;
  }
  return false;
}

}  // namespace ptx::registers

// PlainIndex: the one rule for the number in a register or special-register name.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ptx {

// `digits` read as a plain decimal index: digits only, not empty, no leading zero but "0"
// (`%r12` in `%r<N>`, `%envreg31`; ptxas reads `%r012` as another name).
inline std::optional<std::uint32_t> parsePlainIndex(std::string_view digits) {
  if (digits.empty() || (digits.size() > 1 && digits[0] == '0')) return std::nullopt;
  std::uint32_t value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

}  // namespace ptx

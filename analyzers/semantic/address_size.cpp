// SEM006 address-size
//
// What it does: checks `.address_size`: its value must be 32 or 64, it may appear only
// once, and 32 draws a warning because current ptxas no longer builds 32-bit device code.
//
// Why is this bad: ptxas rejects other values ("Illegal value for .address_size directive")
// and a second directive (a parsing error); with 32 it warns about the host mismatch and
// refuses code that touches memory ("32-Bit compilation is no longer supported").
//
// Example:
//     .address_size 32
//
// Use instead:
//     .address_size 64
//
// Fixes: set the value to 64; remove a repeated directive.
//
// References: PTX ISA §11.1.3 (.address_size).
#include <optional>
#include <string>

#include "RuleContext.h"

namespace ptx {
namespace {

// The whole line of the `.address_size` directive whose value is at `value`, newline
// included, when the line holds nothing else.
std::optional<ByteRange> directiveLine(const RuleContext& context, ByteRange value) {
  std::string_view text = context.text;
  std::size_t lineStart = text.rfind('\n', value.begin == 0 ? 0 : value.begin - 1);
  lineStart = lineStart == std::string_view::npos ? 0 : lineStart + 1;
  std::size_t lineEnd = text.find('\n', value.end);
  lineEnd = lineEnd == std::string_view::npos ? text.size() : lineEnd + 1;
  std::string_view before = text.substr(lineStart, value.begin - lineStart);
  std::size_t keyword = before.find_first_not_of(" \t");
  std::string_view directive = spellingOf(Modifier::AddressSize);
  if (keyword == std::string_view::npos ||
      before.substr(keyword).find_first_not_of(" \t", directive.size()) != std::string_view::npos ||
      !before.substr(keyword).starts_with(directive)) {
    return std::nullopt;
  }
  std::string_view after = text.substr(value.end, lineEnd - value.end);
  if (after.find_first_not_of(" \t\r\n") != std::string_view::npos) return std::nullopt;
  return ByteRange{static_cast<std::uint32_t>(lineStart), static_cast<std::uint32_t>(lineEnd)};
}

}  // namespace

void checkAddressSize(const RuleContext& context) {
  const auto& sizes = context.module.header.addressSizes;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const auto& [value, range] = sizes[i];
    if (i > 0) {
      context.report("SEM006", range,
                     "'.address_size' may appear only once per module",
                     {{sizes[0].second, "first set here"}});
      if (auto line = directiveLine(context, range)) {
        context.attachFix("Remove the repeated '.address_size'", {{*line, ""}}, /*isPreferred=*/value == sizes[0].first);
      }
    } else if (value != 32 && value != 64) {
      context.report("SEM006", range,
                     "'.address_size' must be 32 or 64, not " + std::string(context.textOf(range)));
      context.attachFix("Change to '.address_size 64'", {{range, "64"}}, /*isPreferred=*/true);
    } else if (value == 32) {
      context.reportWithSeverity("SEM006", Severity::Warning, range,
                                 "32-bit addressing: ptxas from CUDA 12 on no longer compiles 32-bit device code "
                                 "that accesses memory; use '.address_size 64'");
      // Not preferred: code written for 32-bit addresses may need 64-bit registers too.
      context.attachFix("Change to '.address_size 64'", {{range, "64"}});
    }
  }
}

}  // namespace ptx

// Hover: what to show for the word under the cursor — instruction docs for an opcode,
// reference docs for directives, types, state spaces and special registers, and for a
// register, variable, parameter, label or function its declaration and uses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "Lint.h"
#include "text/LineIndex.h"

namespace ptx::lsp {

struct HoverResult {
  std::string markdown;
  ByteRange range;  // The word the hover is about.
};

// `lines`, when given, must index `text` (declaration lines are looked up in it).
std::optional<HoverResult> hoverAt(std::string_view text, const LintResult& analysis, std::uint32_t offset,
                                   const LineIndex* lines = nullptr);

}  // namespace ptx::lsp

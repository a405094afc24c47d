// Positions: LSP line/character positions ↔ byte offsets, in UTF-16 code units (the LSP
// default) or UTF-8 bytes (when the client offers `general.positionEncodings: ["utf-8"]`).
//
// Out-of-range positions are clamped (a character past the line end means the line end, a
// line past the end means the end of the text), as the LSP specification asks.
#pragma once

#include <cstdint>
#include <string_view>

#include "text/LineIndex.h"

namespace ptx::lsp {

enum class PositionEncoding : std::uint8_t { Utf16, Utf8 };

struct Position {
  std::uint32_t line = 0;
  std::uint32_t character = 0;
};

std::uint32_t offsetAt(std::string_view text, const LineIndex& lines, Position position, PositionEncoding encoding);
Position positionAt(std::string_view text, const LineIndex& lines, std::uint32_t offset, PositionEncoding encoding);

}  // namespace ptx::lsp

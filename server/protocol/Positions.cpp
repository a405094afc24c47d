// Positions: walks one line's UTF-8 to count code units.
#include "protocol/Positions.h"

#include <algorithm>

namespace ptx::lsp {
namespace {

// Length in bytes of the UTF-8 sequence starting at `text[i]` and its UTF-16 size; invalid
// bytes count as one byte and one unit, so garbage still maps to stable positions.
std::pair<std::uint32_t, std::uint32_t> sequenceAt(std::string_view text, std::size_t i) {
  auto byte = static_cast<unsigned char>(text[i]);
  std::uint32_t length = byte < 0x80 ? 1 : (byte >> 5) == 0x6 ? 2 : (byte >> 4) == 0xE ? 3 : (byte >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || i + length > text.size()) return {1, 1};
  for (std::uint32_t k = 1; k < length; ++k) {
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return {1, 1};
  }
  return {length, length == 4 ? 2u : 1u};
}

}  // namespace

std::uint32_t offsetAt(std::string_view text, const LineIndex& lines, Position position, PositionEncoding encoding) {
  if (position.line >= lines.lineCount()) return static_cast<std::uint32_t>(text.size());
  std::uint32_t start = lines.lineStart(position.line);
  std::string_view line = lines.lineText(position.line);
  if (encoding == PositionEncoding::Utf8) return start + std::min<std::uint32_t>(position.character, static_cast<std::uint32_t>(line.size()));
  std::uint32_t units = 0;
  std::size_t i = 0;
  while (i < line.size() && units < position.character) {
    auto [bytes, width] = sequenceAt(line, i);
    // A position inside a surrogate pair rounds up to the end of the character.
    units += width;
    i += bytes;
  }
  return start + static_cast<std::uint32_t>(i);
}

Position positionAt(std::string_view text, const LineIndex& lines, std::uint32_t offset, PositionEncoding encoding) {
  offset = std::min<std::uint32_t>(offset, static_cast<std::uint32_t>(text.size()));
  Position position;
  position.line = lines.lineOf(offset);
  std::uint32_t start = lines.lineStart(position.line);
  if (encoding == PositionEncoding::Utf8) {
    position.character = offset - start;
    return position;
  }
  std::string_view prefix = text.substr(start, offset - start);
  std::uint32_t units = 0;
  for (std::size_t i = 0; i < prefix.size();) {
    auto [bytes, width] = sequenceAt(prefix, i);
    units += width;
    i += bytes;
  }
  position.character = units;
  return position;
}

}  // namespace ptx::lsp

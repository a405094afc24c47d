// Formatter: lays out PTX the way nvcc prints it, changing only whitespace between tokens.
//
// The formatter walks the syntax tree once and decides, for every gap between two tokens
// (comments included), what whitespace belongs there: a line break with indentation, one
// space, the opcode-to-operand separator, or nothing. Tokens themselves are never touched,
// so string literals, comments, `.loc`/`.file` lines and debug sections keep their bytes.
// A statement whose subtree holds an ERROR or MISSING node is copied byte for byte, together
// with the whitespace around it, so formatting a broken file is safe. docs/formatting.md
// describes the style.
//
// The functions are pure: they read the text and its tree and return new text or edits.
// Thread safety: any thread may call them, on any number of texts at once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diag/Diagnostic.h"
#include "syntax/SyntaxTree.h"

namespace ptx {

// What separates an instruction's opcode (with its modifiers) from its first operand.
enum class OperandSeparator : std::uint8_t {
  // A space and a tab, exactly as nvcc prints it: `ld.param.u64 \t%rd1, [p];`.
  SpaceTab,
  // One space: `ld.param.u64 %rd1, [p];`.
  Space,
};

struct FormatOptions {
  // Indent with one tab per level; when false, with `indentWidth` spaces per level.
  bool useTabs = true;
  unsigned indentWidth = 4;
  // Also put before the name in a function's top-level `.reg` and `.local` declarations, as
  // nvcc does (`.reg .b32 \t%r<9>;`).
  OperandSeparator operandSeparator = OperandSeparator::SpaceTab;
  // `a, b` rather than `a,b`.
  bool spaceAfterComma = true;
  // Longer runs of blank lines are shortened to this many (nvcc itself emits two).
  unsigned maxBlankLines = 2;
};

// Replace the bytes in `range` of the original text with `newText`.
struct TextEdit {
  ByteRange range;
  std::string newText;

  friend bool operator==(const TextEdit&, const TextEdit&) = default;
};

// The whole text, formatted. `tree` must be the parse of `text`. A tree whose parse
// stopped early (SyntaxTree::isComplete() is false) leaves the text unchanged.
std::string formatText(std::string_view text, const SyntaxTree& tree,
                       const FormatOptions& options = {});

// The same result as edits of the original text: at most one edit per whitespace gap, covering
// only the bytes that change, in ascending order, never overlapping. With `range`, only statements
// that overlap it are formatted (the whitespace before them and inside them, and trailing
// whitespace after them); a function's signature counts as one statement and each brace of a block
// as another.
std::vector<TextEdit> formatEdits(std::string_view text, const SyntaxTree& tree,
                                  const FormatOptions& options = {},
                                  std::optional<ByteRange> range = std::nullopt);

}  // namespace ptx

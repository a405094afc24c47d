// FormatTokens (internal to core/format): the token list the formatter's tree walk produces —
// each token with the layout rule for the gap before it — and the walk itself
// (FormatWalker.cpp). Formatter.cpp renders the gaps.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

namespace ptx::format {

// What a token is to its neighbours' gaps.
enum class Role : std::uint8_t {
  Plain,
  Comma,
  Open,        // ( [ { < of inline groups: nothing after.
  Close,       // ) ] } >: nothing before.
  OpcodeHead,  // The opcode and its modifiers: the operand separator follows.
  GuardPart,   // @ and !: nothing after.
  GuardEnd,    // The guard's predicate: one space after.
  UnaryOp,     // Nothing after.
  TightOp,     // No space on either side: `[%rd1+8]`, `{a, b}|%p`.
  SpacedOp,    // One space on each side: `a << 2`, `x = 1`.
};

enum class Gap : std::uint8_t {
  None,
  Space,
  Comma,       // One space or nothing, by FormatOptions::spaceAfterComma.
  OperandSep,  // FormatOptions::operandSeparator.
  Preserve,    // One space where the text had whitespace, nothing where it had none.
  LineStart,   // A line break (blank lines kept up to the maximum) and indentation.
  Comment,     // LineStart where the comment began a line, else one space.
};

enum TokenFlag : std::uint8_t {
  kVerbatim = 1,      // An erroneous statement: it and the whitespace around it are kept.
  kEndsLine = 2,      // Nothing but a comment may follow on the same line.
  kBlockComment = 4,  // A /* */ comment: code that followed it on its line stays there.
};

struct Token {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  // The statement the token belongs to, for range formatting.
  std::uint32_t unitBegin = 0;
  std::uint32_t unitEnd = 0;
  // Indentation level when the token starts a line: by rule (`depth`) or because the line
  // before it had to end (`continuationDepth`).
  std::uint16_t depth = 0;
  std::uint16_t continuationDepth = 0;
  Gap gap = Gap::Preserve;
  Role role = Role::Plain;
  std::uint8_t flags = 0;
};

// The tokens of the tree under `root`, in order, with their gaps, roles and levels.
std::vector<Token> walkTokens(std::string_view text, TSNode root);

}  // namespace ptx::format

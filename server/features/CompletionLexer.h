// CompletionLexer: a small PTX lexer for completion and signature help, independent of the
// syntax tree. It exists because the statement under the cursor is usually incomplete while
// typing: tree-sitter's error recovery may join it with the next statement or drop it, so
// the tree cannot say what the cursor's statement is. Dotted words are resolved to their
// Modifier once here, so the scanner compares enumerators, never spellings.
#pragma once

#include <cstdint>
#include <string_view>

#include "isa/InstructionFacts.h"

namespace ptx::lsp::completion {

enum class TokenKind : std::uint8_t { End, Word, Dotted, Number, String, Comment, Punct };

struct Token {
  TokenKind kind = TokenKind::End;
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  bool lineStart = false;   // A newline separates it from the previous token.
  bool unterminated = false;  // A string or comment that runs to the end of its line or text.
  Modifier modifier = Modifier::Unknown;  // A Dotted token's word as a modifier.
};

bool isIdentifierChar(char c);

class Lexer {
 public:
  Lexer(std::string_view text, std::uint32_t position) : text_(text), pos_(position) {}

  Token next();

 private:
  static bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

  void skipLine();

  std::string_view text_;
  std::uint32_t pos_;
  bool pendingNewline_ = false;
};

}  // namespace ptx::lsp::completion

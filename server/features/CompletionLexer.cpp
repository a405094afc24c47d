// CompletionLexer: splits PTX text into the tokens completion reads (words, dotted words,
// numbers, strings, comments, punctuation), noting line starts and unterminated strings.
#include "features/CompletionLexer.h"

#include <algorithm>

namespace ptx::lsp::completion {
namespace {

bool isIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}

}  // namespace

bool isIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}


Token Lexer::next() {
  bool newline = pendingNewline_;
  while (pos_ < text_.size() && isSpace(text_[pos_])) {
    if (text_[pos_] == '\n') newline = true;
    ++pos_;
  }
  Token token;
  token.begin = pos_;
  token.lineStart = newline;
  if (pos_ >= text_.size()) {
    token.end = pos_;
    return token;
  }
  char c = text_[pos_];
  char next = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\0';
  if (c == '/' && next == '/') {
    token.kind = TokenKind::Comment;
    token.unterminated = true;  // A line comment covers everything up to the newline.
    skipLine();
  } else if (c == '/' && next == '*') {
    token.kind = TokenKind::Comment;
    std::size_t close = text_.find("*/", pos_ + 2);
    token.unterminated = close == std::string_view::npos;
    pos_ = token.unterminated ? static_cast<std::uint32_t>(text_.size()) : static_cast<std::uint32_t>(close + 2);
  } else if (c == '@' && next == '@') {
    token.kind = TokenKind::Comment;  // `@@DWARF` lines: ptxas ignores them.
    token.unterminated = true;
    skipLine();
  } else if (c == '"') {
    token.kind = TokenKind::String;
    token.unterminated = true;
    ++pos_;
    while (pos_ < text_.size() && text_[pos_] != '\n') {
      if (text_[pos_] == '\\') {
        pos_ += 2;
        continue;
      }
      if (text_[pos_++] == '"') {
        token.unterminated = false;
        break;
      }
    }
    pos_ = std::min(pos_, static_cast<std::uint32_t>(text_.size()));
  } else if (isIdentifierStart(c) && (c != '%' || isIdentifierChar(next))) {
    token.kind = TokenKind::Word;
    ++pos_;
    while (pos_ < text_.size() && isIdentifierChar(text_[pos_])) ++pos_;
  } else if (c == '.' && isIdentifierChar(next)) {
    // `.b32`, `.shared::cta`, `.L2::cache_hint`.
    token.kind = TokenKind::Dotted;
    ++pos_;
    while (pos_ < text_.size()) {
      if (isIdentifierChar(text_[pos_])) {
        ++pos_;
      } else if (text_[pos_] == ':' && pos_ + 2 < text_.size() && text_[pos_ + 1] == ':' &&
                 isIdentifierChar(text_[pos_ + 2])) {
        pos_ += 2;
      } else {
        break;
      }
    }
    token.modifier = modifierNamed(text_.substr(token.begin, pos_ - token.begin));
  } else if (c >= '0' && c <= '9') {
    token.kind = TokenKind::Number;  // 42, 0x2A, 0f3F800000, 1.5
    ++pos_;
    while (pos_ < text_.size() && (isIdentifierChar(text_[pos_]) || text_[pos_] == '.')) ++pos_;
  } else {
    token.kind = TokenKind::Punct;
    ++pos_;
  }
  token.end = pos_;
  // A newline right after a comment still separates the tokens around the comment.
  pendingNewline_ = token.kind == TokenKind::Comment && newline;
  return token;
}

void Lexer::skipLine() {
  std::size_t newline = text_.find('\n', pos_);
  pos_ = newline == std::string_view::npos ? static_cast<std::uint32_t>(text_.size())
                                           : static_cast<std::uint32_t>(newline);
}

}  // namespace ptx::lsp::completion

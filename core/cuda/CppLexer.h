// CppLexer: the C++ tokens of a CUDA source, as the preprocessor sees them.
//
// Inline PTX is found and rebuilt from tokens rather than from a C++ syntax tree because it
// lives where a grammar cannot follow: in `#define` bodies, with `#if`/`#else` lines inside its
// operand list, built from macros that name string literals. The lexer does translation phases
// 1–3 only: `\`-newline splices are removed (offsets still point into the original text),
// comments are dropped, and each preprocessor directive's tokens are marked with the directive
// they belong to. It never fails: an unterminated string or comment ends at the end of its line
// or of the text and is flagged, and any other byte becomes a one-byte punctuator.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diag/Diagnostic.h"

namespace ptx::cuda {

enum class TokenKind : std::uint8_t {
  Identifier,
  Number,
  String,     // "...", with any encoding prefix, or a raw string R"d(...)d".
  Character,  // '...'
  Punctuator,
};

inline constexpr std::uint32_t kNoDirective = UINT32_MAX;

struct Token {
  TokenKind kind = TokenKind::Punctuator;
  bool unterminated = false;  // A string or character literal that ran into the end of its line.
  bool raw = false;           // A raw string literal.
  bool startsLine = false;    // First token of its (spliced) line.
  ByteRange range;            // In the original text, splices included.
  std::uint32_t directive = kNoDirective;  // Index of the directive this token belongs to.
};

// One preprocessor directive: the `#` line and its tokens [firstToken, endToken).
struct Directive {
  std::uint32_t firstToken = 0;  // The `#` itself.
  std::uint32_t endToken = 0;
  ByteRange range;
};

class LexedSource {
 public:
  explicit LexedSource(std::string_view text);

  std::string_view text() const { return text_; }
  const std::vector<Token>& tokens() const { return tokens_; }
  const std::vector<Directive>& directives() const { return directives_; }

  // The token's characters with splices removed ("__vola\\\ntile__" reads "__volatile__").
  std::string spelling(const Token& token) const;
  // The same without a copy when the token holds no splice (the common case).
  std::string_view spellingView(const Token& token, std::string& scratch) const;
  bool is(const Token& token, std::string_view spelling) const;

  // True when the original text has a splice inside [begin, end).
  bool hasSplice(ByteRange range) const;

 private:
  std::string_view text_;
  std::vector<Token> tokens_;
  std::vector<Directive> directives_;
  std::vector<std::uint32_t> splices_;  // Offsets of each `\` that starts a splice, ascending.
};

// The decoded bytes of a string literal token and, for each byte, the source range of the
// character or escape sequence it came from. Escapes follow C++: simple escapes, octal, hex,
// and \u/\U written as UTF-8.
struct DecodedString {
  std::string bytes;
  std::vector<std::uint32_t> sourceBegin;  // One per byte.
  std::vector<std::uint8_t> sourceWidth;   // One per byte; a UTF-8 sequence's bytes share it.
  bool hasPrefix = false;                  // L, u, U, u8: not a narrow literal.
};

DecodedString decodeStringLiteral(const LexedSource& source, const Token& token);

// The value of a pp-number that is an integer literal: decimal, hex, octal or binary, digit
// separators and integer suffixes; nullopt for a floating literal or a value past 64 bits.
std::optional<std::uint64_t> integerLiteralValue(std::string_view spelling);

}  // namespace ptx::cuda

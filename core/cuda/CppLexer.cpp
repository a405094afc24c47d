// CppLexer: tokens of a CUDA source with splices removed and directives marked.
#include "cuda/CppLexer.h"

#include <algorithm>
#include <cctype>

namespace ptx::cuda {
namespace {

bool isIdentifierStart(unsigned char c) { return std::isalpha(c) || c == '_' || c == '$' || c >= 0x80; }
bool isIdentifierChar(unsigned char c) { return std::isalnum(c) || c == '_' || c == '$' || c >= 0x80; }

// The text with every backslash-newline removed, and for each remaining byte its offset in the
// original text. Without splices the clean text is the original and the map is the identity.
class SplicedText {
 public:
  explicit SplicedText(std::string_view text, std::vector<std::uint32_t>& splices) : original_(text) {
    for (std::size_t i = 0; i + 1 < text.size(); ++i) {
      if (text[i] != '\\') continue;
      if (text[i + 1] == '\n' || (text[i + 1] == '\r' && i + 2 < text.size() && text[i + 2] == '\n')) {
        splices.push_back(static_cast<std::uint32_t>(i));
      }
    }
    if (splices.empty()) return;
    clean_.reserve(text.size());
    origin_.reserve(text.size() + 1);
    std::size_t next = 0;
    for (std::size_t i = 0; i < text.size();) {
      if (next < splices.size() && i == splices[next]) {
        i += text[i + 1] == '\n' ? 2 : 3;
        ++next;
        continue;
      }
      clean_.push_back(text[i]);
      origin_.push_back(static_cast<std::uint32_t>(i));
      ++i;
    }
    origin_.push_back(static_cast<std::uint32_t>(text.size()));
  }

  std::string_view view() const { return origin_.empty() ? original_ : std::string_view(clean_); }
  std::uint32_t originOf(std::size_t clean) const {
    return origin_.empty() ? static_cast<std::uint32_t>(clean) : origin_[clean];
  }
  // The original range of clean bytes [begin, end).
  ByteRange rangeOf(std::size_t begin, std::size_t end) const {
    if (begin == end) return {originOf(begin), originOf(begin)};
    return {originOf(begin), originOf(end - 1) + 1};
  }

 private:
  std::string_view original_;
  std::string clean_;
  std::vector<std::uint32_t> origin_;
};

// The end of a quoted literal starting at `pos` (the opening quote); stops at the closing
// quote or before the end of the line.
std::size_t endOfQuoted(std::string_view s, std::size_t pos, char quote, bool& unterminated) {
  std::size_t i = pos + 1;
  while (i < s.size()) {
    char c = s[i];
    if (c == '\\' && i + 1 < s.size() && s[i + 1] != '\n') {
      i += 2;
      continue;
    }
    if (c == quote) return i + 1;
    if (c == '\n') break;
    ++i;
  }
  unterminated = true;
  return i;
}

// The end of a raw string whose `R"` starts at `pos`; a raw string may span lines.
std::size_t endOfRaw(std::string_view s, std::size_t pos, bool& unterminated) {
  std::size_t open = pos + 2;
  std::size_t paren = open;
  while (paren < s.size() && paren - open <= 16 && s[paren] != '(' && s[paren] != '"' && s[paren] != '\n' &&
         s[paren] != ' ' && s[paren] != ')' && s[paren] != '\\')
    ++paren;
  if (paren >= s.size() || s[paren] != '(') {
    unterminated = true;
    std::size_t eol = s.find('\n', pos);
    return eol == std::string_view::npos ? s.size() : eol;
  }
  std::string closing = ")";
  closing.append(s.substr(open, paren - open));
  closing.push_back('"');
  std::size_t close = s.find(closing, paren + 1);
  if (close == std::string_view::npos) {
    unterminated = true;
    return s.size();
  }
  return close + closing.size();
}

// Length of an encoding prefix (L, u, U, u8, with R for raw) before a quote at `pos`, or 0.
std::size_t literalPrefix(std::string_view s, std::size_t pos, bool& raw) {
  static constexpr std::string_view kPrefixes[] = {"u8R", "LR", "uR", "UR", "u8", "R", "L", "u", "U"};
  for (std::string_view prefix : kPrefixes) {
    if (s.substr(pos, prefix.size()) == prefix && pos + prefix.size() < s.size() &&
        (s[pos + prefix.size()] == '"' || (s[pos + prefix.size()] == '\'' && prefix.back() != 'R'))) {
      raw = prefix.back() == 'R';
      return prefix.size();
    }
  }
  return 0;
}

constexpr std::string_view kThreeCharPunctuators[] = {"<<=", ">>=", "...", "->*", "<=>"};
constexpr std::string_view kTwoCharPunctuators[] = {"::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&",
                                                    "||", "##", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".*"};

}  // namespace

LexedSource::LexedSource(std::string_view text) : text_(text) {
  SplicedText spliced(text, splices_);
  std::string_view s = spliced.view();
  tokens_.reserve(s.size() / 5);

  bool atLineStart = true;  // No token yet on this (clean) line.
  std::uint32_t openDirective = kNoDirective;
  auto closeDirective = [&] {
    if (openDirective == kNoDirective) return;
    Directive& directive = directives_[openDirective];
    directive.endToken = static_cast<std::uint32_t>(tokens_.size());
    directive.range.end = tokens_.back().range.end;
    openDirective = kNoDirective;
  };
  auto push = [&](TokenKind kind, std::size_t begin, std::size_t end) -> Token& {
    Token& token = tokens_.emplace_back();
    token.kind = kind;
    token.range = spliced.rangeOf(begin, end);
    token.startsLine = atLineStart;
    token.directive = openDirective;
    atLineStart = false;
    return token;
  };

  std::size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n') {
      closeDirective();
      atLineStart = true;
      ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      std::size_t eol = s.find('\n', i);
      i = eol == std::string_view::npos ? s.size() : eol;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      std::size_t close = s.find("*/", i + 2);
      i = close == std::string_view::npos ? s.size() : close + 2;
      continue;
    }
    if (c == '#' && atLineStart && openDirective == kNoDirective) {
      openDirective = static_cast<std::uint32_t>(directives_.size());
      Directive& directive = directives_.emplace_back();
      directive.firstToken = static_cast<std::uint32_t>(tokens_.size());
      directive.range = spliced.rangeOf(i, i + 1);
      push(TokenKind::Punctuator, i, i + 1).startsLine = true;
      ++i;
      continue;
    }
    bool raw = false;
    std::size_t prefix = isIdentifierStart(c) ? literalPrefix(s, i, raw) : 0;
    if (c == '"' || prefix > 0) {
      std::size_t quote = i + prefix;
      bool unterminated = false;
      if (s[quote] == '\'') {
        std::size_t end = endOfQuoted(s, quote, '\'', unterminated);
        Token& token = push(TokenKind::Character, i, end);
        token.unterminated = unterminated;
        i = end;
        continue;
      }
      std::size_t end = raw ? endOfRaw(s, quote - 1, unterminated) : endOfQuoted(s, quote, '"', unterminated);
      Token& token = push(TokenKind::String, i, end);
      token.unterminated = unterminated;
      token.raw = raw;
      i = end;
      continue;
    }
    if (c == '\'') {
      bool unterminated = false;
      std::size_t end = endOfQuoted(s, i, '\'', unterminated);
      push(TokenKind::Character, i, end).unterminated = unterminated;
      i = end;
      continue;
    }
    if (isIdentifierStart(c)) {
      std::size_t end = i + 1;
      while (end < s.size() && isIdentifierChar(static_cast<unsigned char>(s[end]))) ++end;
      push(TokenKind::Identifier, i, end);
      i = end;
      continue;
    }
    if (std::isdigit(c) || (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      // A pp-number: digits, letters, '.', digit separators, and signs after an exponent.
      std::size_t end = i + 1;
      while (end < s.size()) {
        unsigned char d = static_cast<unsigned char>(s[end]);
        if ((d == '+' || d == '-') && (s[end - 1] == 'e' || s[end - 1] == 'E' || s[end - 1] == 'p' || s[end - 1] == 'P')) {
          ++end;
          continue;
        }
        if (!(std::isalnum(d) || d == '.' || d == '_' || d == '\'')) break;
        ++end;
      }
      push(TokenKind::Number, i, end);
      i = end;
      continue;
    }
    std::size_t length = 1;
    for (std::string_view p : kThreeCharPunctuators)
      if (s.substr(i, 3) == p) length = 3;
    if (length == 1)
      for (std::string_view p : kTwoCharPunctuators)
        if (s.substr(i, 2) == p) length = 2;
    push(TokenKind::Punctuator, i, i + length);
    i += length;
  }
  closeDirective();
}

bool LexedSource::hasSplice(ByteRange range) const {
  auto it = std::lower_bound(splices_.begin(), splices_.end(), range.begin);
  return it != splices_.end() && *it < range.end;
}

std::string LexedSource::spelling(const Token& token) const {
  std::string_view raw = text_.substr(token.range.begin, token.range.end - token.range.begin);
  if (!hasSplice(token.range)) return std::string(raw);
  std::string out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size() && raw[i + 1] == '\n') {
      ++i;
      continue;
    }
    if (raw[i] == '\\' && i + 2 < raw.size() && raw[i + 1] == '\r' && raw[i + 2] == '\n') {
      i += 2;
      continue;
    }
    out.push_back(raw[i]);
  }
  return out;
}

std::string_view LexedSource::spellingView(const Token& token, std::string& scratch) const {
  if (!hasSplice(token.range)) return text_.substr(token.range.begin, token.range.end - token.range.begin);
  scratch = spelling(token);
  return scratch;
}

bool LexedSource::is(const Token& token, std::string_view spelling) const {
  if (token.range.end - token.range.begin == spelling.size())
    return text_.substr(token.range.begin, spelling.size()) == spelling;
  if (!hasSplice(token.range)) return false;
  return this->spelling(token) == spelling;
}

std::optional<std::uint64_t> integerLiteralValue(std::string_view spelling) {
  std::string digits;
  for (char c : spelling)
    if (c != '\'') digits += c;
  while (!digits.empty() && std::string_view("uUlLzZ").find(digits.back()) != std::string_view::npos) digits.pop_back();
  unsigned base = 10;
  std::size_t at = 0;
  if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    at = 2;
  } else if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) {
    base = 2;
    at = 2;
  } else if (digits.size() > 1 && digits[0] == '0') {
    base = 8;
    at = 1;
  }
  if (at >= digits.size()) return std::nullopt;
  std::uint64_t value = 0;
  for (; at < digits.size(); ++at) {
    char c = digits[at];
    unsigned digit = 0;
    if (c >= '0' && c <= '9') digit = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f') digit = static_cast<unsigned>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') digit = static_cast<unsigned>(c - 'A' + 10);
    else return std::nullopt;
    if (digit >= base || value > (UINT64_MAX - digit) / base) return std::nullopt;
    value = value * base + digit;
  }
  return value;
}

DecodedString decodeStringLiteral(const LexedSource& source, const Token& token) {
  DecodedString out;
  std::string_view text = source.text();
  // Walk the original bytes so that every decoded byte keeps its source offset; splices are
  // skipped where they appear.
  std::uint32_t i = token.range.begin;
  std::uint32_t end = token.range.end;
  auto skipSplices = [&] {
    while (i + 1 < end && text[i] == '\\' && (text[i + 1] == '\n' || (text[i + 1] == '\r' && i + 2 < end && text[i + 2] == '\n')))
      i += text[i + 1] == '\n' ? 2 : 3;
  };
  auto emit = [&](char byte, std::uint32_t begin, std::uint32_t width) {
    out.bytes.push_back(byte);
    out.sourceBegin.push_back(begin);
    out.sourceWidth.push_back(static_cast<std::uint8_t>(std::min<std::uint32_t>(width, 255)));
  };
  // Prefix up to the opening quote.
  while (i < end && text[i] != '"') {
    if (text[i] != 'R' && text[i] != '\\' && text[i] != '\n' && text[i] != '\r') out.hasPrefix = true;
    ++i;
  }
  if (i >= end) return out;
  ++i;  // Opening quote.
  if (token.raw) {
    // R"delim( ... )delim": the bytes between the parentheses, as written (no splices in raw
    // strings: phase 2 is reverted inside them).
    std::uint32_t paren = i;
    while (paren < end && text[paren] != '(') ++paren;
    std::string delimiter(text.substr(i, paren - i));
    std::uint32_t stop = token.unterminated ? end : static_cast<std::uint32_t>(end - delimiter.size() - 2);
    for (std::uint32_t k = paren + 1; k < stop && k < end; ++k) emit(text[k], k, 1);
    return out;
  }
  std::uint32_t stop = token.unterminated ? end : end - 1;
  while (true) {
    skipSplices();
    if (i >= stop) break;
    std::uint32_t begin = i;
    char c = text[i];
    if (c != '\\') {
      emit(c, begin, 1);
      ++i;
      continue;
    }
    ++i;
    skipSplices();
    if (i >= stop) {
      emit('\\', begin, 1);
      break;
    }
    char e = text[i++];
    switch (e) {
      case 'n': emit('\n', begin, i - begin); break;
      case 't': emit('\t', begin, i - begin); break;
      case 'r': emit('\r', begin, i - begin); break;
      case 'a': emit('\a', begin, i - begin); break;
      case 'b': emit('\b', begin, i - begin); break;
      case 'f': emit('\f', begin, i - begin); break;
      case 'v': emit('\v', begin, i - begin); break;
      case 'x': {
        unsigned value = 0;
        while (i < stop && std::isxdigit(static_cast<unsigned char>(text[i]))) {
          char h = text[i++];
          value = value * 16 + static_cast<unsigned>(std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
        }
        emit(static_cast<char>(value & 0xff), begin, i - begin);
        break;
      }
      case 'u':
      case 'U': {
        unsigned digits = e == 'u' ? 4 : 8;
        std::uint32_t code = 0;
        for (unsigned k = 0; k < digits && i < stop && std::isxdigit(static_cast<unsigned char>(text[i])); ++k) {
          char h = text[i++];
          code = code * 16 + static_cast<unsigned>(std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
        }
        std::uint32_t width = i - begin;
        if (code < 0x80) {
          emit(static_cast<char>(code), begin, width);
        } else if (code < 0x800) {
          emit(static_cast<char>(0xC0 | (code >> 6)), begin, width);
          emit(static_cast<char>(0x80 | (code & 0x3F)), begin, width);
        } else if (code < 0x10000) {
          emit(static_cast<char>(0xE0 | (code >> 12)), begin, width);
          emit(static_cast<char>(0x80 | ((code >> 6) & 0x3F)), begin, width);
          emit(static_cast<char>(0x80 | (code & 0x3F)), begin, width);
        } else {
          emit(static_cast<char>(0xF0 | (code >> 18)), begin, width);
          emit(static_cast<char>(0x80 | ((code >> 12) & 0x3F)), begin, width);
          emit(static_cast<char>(0x80 | ((code >> 6) & 0x3F)), begin, width);
          emit(static_cast<char>(0x80 | (code & 0x3F)), begin, width);
        }
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          unsigned value = static_cast<unsigned>(e - '0');
          for (int k = 0; k < 2 && i < stop && text[i] >= '0' && text[i] <= '7'; ++k) value = value * 8 + static_cast<unsigned>(text[i++] - '0');
          emit(static_cast<char>(value & 0xff), begin, i - begin);
        } else {
          // \\ \" \' \? and unknown escapes (which compilers read as the character).
          emit(e, begin, i - begin);
        }
    }
  }
  return out;
}

}  // namespace ptx::cuda

// PtxLineMap and AsmSourceIndex: see PtxLineMap.h.
#include "PtxLineMap.h"

#include <algorithm>
#include <charconv>

namespace ptx::oracle {
namespace {

std::string_view trim(std::string_view text) {
  std::size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return {};
  std::size_t end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

// An unsigned number after optional blanks; advances `text` past it.
std::optional<std::uint32_t> takeNumber(std::string_view& text) {
  std::size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return std::nullopt;
  std::uint32_t value = 0;
  auto [end, error] = std::from_chars(text.data() + begin, text.data() + text.size(), value);
  if (error != std::errc()) return std::nullopt;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return value;
}

// "FILE LINE COLUMN" as a `.loc` and its `inlined_at` write them.
std::optional<PtxSourcePosition> takePosition(std::string_view& text) {
  auto file = takeNumber(text);
  auto line = file ? takeNumber(text) : std::nullopt;
  if (!line) return std::nullopt;
  std::string_view rest = text;
  auto column = takeNumber(rest);
  if (column) text = rest;
  return PtxSourcePosition{*file, *line, column.value_or(0)};
}

bool startsWithWord(std::string_view text, std::string_view word) {
  return text.starts_with(word) && text.size() > word.size() && (text[word.size()] == ' ' || text[word.size()] == '\t');
}

// `.entry`/`.func` opening a function (after its linkage): the `.loc`s before it are another
// function's.
bool opensFunction(std::string_view line) {
  while (!line.empty()) {
    std::size_t end = line.find_first_of(" \t(");
    std::string_view word = line.substr(0, end);
    if (word == ".entry" || word == ".func") return true;
    if (word != ".visible" && word != ".extern" && word != ".weak" && word != ".common") return false;
    line = trim(end == std::string_view::npos ? std::string_view() : line.substr(end));
  }
  return false;
}

// `.file N "path"` (optionally followed by a timestamp and size).
std::optional<std::pair<std::uint32_t, std::string>> parseFile(std::string_view text) {
  auto index = takeNumber(text);
  std::size_t quote = text.find('"');
  if (!index || quote == std::string_view::npos) return std::nullopt;
  std::string path;
  for (std::size_t i = quote + 1; i < text.size(); ++i) {
    if (text[i] == '"') return std::pair{*index, path};
    if (text[i] == '\\' && i + 1 < text.size()) ++i;
    path += text[i];
  }
  return std::nullopt;
}

}  // namespace

PtxLineMap::PtxLineMap(std::string_view ptx) {
  std::int32_t loc = -1;
  std::int32_t block = -1;
  std::size_t position = 0;
  while (position < ptx.size()) {
    std::size_t newline = ptx.find('\n', position);
    std::string_view line = ptx.substr(position, newline == std::string_view::npos ? std::string_view::npos : newline - position);
    position = newline == std::string_view::npos ? ptx.size() : newline + 1;
    auto number = static_cast<std::uint32_t>(lines_.size() + 1);
    std::string_view trimmed = trim(line);
    if (block >= 0) {
      if (trimmed == "// end inline asm") {
        block = -1;
        lines_.push_back({loc, -1});
      } else {
        blocks_[static_cast<std::size_t>(block)].lines.emplace_back(line);
        lines_.push_back({loc, block});
      }
      continue;
    }
    if (trimmed == "// begin inline asm") {
      block = static_cast<std::int32_t>(blocks_.size());
      blocks_.push_back({number + 1, {}});
    } else if (startsWithWord(trimmed, ".loc")) {
      std::string_view rest = trimmed.substr(4);
      if (auto innermost = takePosition(rest)) {
        Loc entry{*innermost, std::nullopt};
        if (std::size_t at = rest.find("inlined_at"); at != std::string_view::npos) {
          std::string_view site = rest.substr(at + std::string_view("inlined_at").size());
          entry.inlinedAt = takePosition(site);
        }
        loc = static_cast<std::int32_t>(locs_.size());
        locs_.push_back(entry);
      }
    } else if (startsWithWord(trimmed, ".file")) {
      if (auto file = parseFile(trimmed.substr(5))) files_[file->first] = std::move(file->second);
    } else if (line.starts_with('}') || opensFunction(trimmed)) {
      loc = -1;
    }
    lines_.push_back({loc, -1});
  }
}

PtxLineLocation PtxLineMap::mapPtxLine(std::uint32_t ptxLine) const {
  PtxLineLocation result;
  if (ptxLine == 0 || ptxLine > lines_.size()) return result;
  const Line& line = lines_[ptxLine - 1];
  if (line.loc >= 0) {
    const Loc& loc = locs_[static_cast<std::size_t>(line.loc)];
    result.hasLoc = true;
    result.loc = loc.position;
    result.inlinedAt = loc.inlinedAt;
    if (auto file = files_.find(loc.position.fileIndex); file != files_.end()) result.file = file->second;
  }
  if (line.block >= 0) {
    const Block& block = blocks_[static_cast<std::size_t>(line.block)];
    result.insideInlineAsm = true;
    result.lineOffsetInBlock = ptxLine - block.firstLine;
    result.blockLineCount = static_cast<std::uint32_t>(block.lines.size());
    result.blockFirstLine = block.firstLine;
    result.blockLines.assign(block.lines.begin(), block.lines.end());
  }
  return result;
}

namespace {

// The source after translation phase 2 (`\`-newline splices removed), with the physical offset
// of each logical byte. Without splices the text is used as it is.
class Spliced {
 public:
  explicit Spliced(std::string_view source) : text_(source) {
    if (source.find("\\\n") == std::string_view::npos && source.find("\\\r\n") == std::string_view::npos) return;
    storage_.reserve(source.size());
    physical_.reserve(source.size() + 1);
    for (std::size_t i = 0; i < source.size(); ++i) {
      if (source[i] == '\\') {
        std::size_t next = i + 1;
        if (next < source.size() && source[next] == '\r') ++next;
        if (next < source.size() && source[next] == '\n') {
          i = next;
          continue;
        }
      }
      storage_ += source[i];
      physical_.push_back(static_cast<std::uint32_t>(i));
    }
    physical_.push_back(static_cast<std::uint32_t>(source.size()));
    text_ = storage_;
  }
  std::string_view text() const { return text_; }
  std::uint32_t physical(std::size_t logical) const {
    return physical_.empty() ? static_cast<std::uint32_t>(logical) : physical_[logical];
  }

 private:
  std::string_view text_;
  std::string storage_;
  std::vector<std::uint32_t> physical_;
};

enum class TokenKind { End, Identifier, String, Number, Character, Punctuation };

struct Token {
  TokenKind kind = TokenKind::End;
  std::size_t begin = 0;  // Logical offsets.
  std::size_t end = 0;
  std::size_t contentBegin = 0;  // Strings: the bytes between the quotes (raw: the delimiters).
  std::size_t contentEnd = 0;
  bool raw = false;
};

bool isIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}
bool isIdentifierChar(char c) { return isIdentifierStart(c) || (c >= '0' && c <= '9'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

// C++ tokens of a spliced text, without preprocessing: comments and directives are skipped.
class Scanner {
 public:
  // `directives`, when given, receives the logical range of each preprocessor directive skipped.
  explicit Scanner(std::string_view text, bool lineStart = true,
                   std::vector<std::pair<std::size_t, std::size_t>>* directives = nullptr)
      : text_(text), lineStart_(lineStart), directives_(directives) {}
  std::size_t position() const { return at_; }
  void seek(std::size_t position) { at_ = position; }

  Token next() {
    skipTrivia();
    Token token;
    token.begin = at_;
    if (at_ >= text_.size()) {
      token.end = at_;
      return token;
    }
    char c = text_[at_];
    if (isIdentifierStart(c)) {
      std::size_t end = at_;
      while (end < text_.size() && isIdentifierChar(text_[end])) ++end;
      std::string_view word = text_.substr(at_, end - at_);
      bool quoted = end < text_.size() && (text_[end] == '"' || text_[end] == '\'');
      if (quoted && text_[end] == '"' && (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR")) {
        at_ = end;
        return rawString(token);
      }
      if (quoted && (word == "u8" || word == "u" || word == "U" || word == "L")) {
        at_ = end;
        return quotedLiteral(token);
      }
      at_ = end;
      token.kind = TokenKind::Identifier;
    } else if (isDigit(c) || (c == '.' && at_ + 1 < text_.size() && isDigit(text_[at_ + 1]))) {
      ++at_;
      while (at_ < text_.size()) {
        char d = text_[at_];
        char previous = text_[at_ - 1];
        if (isIdentifierChar(d) || d == '.') {
          ++at_;
        } else if ((d == '+' || d == '-') && (previous == 'e' || previous == 'E' || previous == 'p' || previous == 'P')) {
          ++at_;
        } else if (d == '\'' && at_ + 1 < text_.size() && isIdentifierChar(text_[at_ + 1])) {
          at_ += 2;  // A digit separator.
        } else {
          break;
        }
      }
      token.kind = TokenKind::Number;
    } else if (c == '"' || c == '\'') {
      return quotedLiteral(token);
    } else {
      ++at_;
      token.kind = TokenKind::Punctuation;
    }
    token.end = at_;
    return token;
  }

 private:
  void skipTrivia() {
    while (at_ < text_.size()) {
      char c = text_[at_];
      if (c == '\n') {
        lineStart_ = true;
        ++at_;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++at_;
      } else if (c == '/' && at_ + 1 < text_.size() && text_[at_ + 1] == '/') {
        at_ = std::min(text_.find('\n', at_), text_.size());
      } else if (c == '/' && at_ + 1 < text_.size() && text_[at_ + 1] == '*') {
        skipBlockComment();
      } else if (c == '#' && lineStart_) {
        // A directive runs to the end of its line; a block comment in it may continue past.
        std::size_t begin = at_;
        while (at_ < text_.size() && text_[at_] != '\n') {
          if (text_[at_] == '/' && at_ + 1 < text_.size() && text_[at_ + 1] == '*') {
            skipBlockComment();
          } else {
            ++at_;
          }
        }
        if (directives_ != nullptr) directives_->emplace_back(begin, at_);
      } else {
        lineStart_ = false;
        return;
      }
    }
  }

  void skipBlockComment() {
    std::size_t close = text_.find("*/", at_ + 2);
    at_ = close == std::string_view::npos ? text_.size() : close + 2;
  }

  // "..." or '...' (after any prefix): an unterminated one ends at the line's end.
  Token quotedLiteral(Token token) {
    char quote = text_[at_];
    token.kind = quote == '"' ? TokenKind::String : TokenKind::Character;
    token.contentBegin = ++at_;
    while (at_ < text_.size() && text_[at_] != quote && text_[at_] != '\n') {
      at_ += text_[at_] == '\\' && at_ + 1 < text_.size() && text_[at_ + 1] != '\n' ? 2 : 1;
    }
    token.contentEnd = std::min(at_, text_.size());
    if (at_ < text_.size() && text_[at_] == quote) ++at_;
    token.end = at_;
    return token;
  }

  // R"delimiter( ... )delimiter"; without a valid delimiter, an ordinary string.
  Token rawString(Token token) {
    std::size_t open = text_.find('(', at_ + 1);
    if (open == std::string_view::npos || open - at_ - 1 > 16 ||
        text_.substr(at_ + 1, open - at_ - 1).find_first_of(" \t\n\\)") != std::string_view::npos) {
      return quotedLiteral(token);
    }
    std::string closing(1, ')');
    closing.append(text_.substr(at_ + 1, open - at_ - 1)).push_back('"');
    std::size_t close = text_.find(closing, open + 1);
    token.kind = TokenKind::String;
    token.raw = true;
    token.contentBegin = open + 1;
    token.contentEnd = close == std::string_view::npos ? text_.size() : close;
    at_ = close == std::string_view::npos ? text_.size() : close + closing.size();
    token.end = at_;
    return token;
  }

  std::string_view text_;
  std::size_t at_ = 0;
  bool lineStart_ = true;
  std::vector<std::pair<std::size_t, std::size_t>>* directives_ = nullptr;
};

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void appendUtf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | ((code >> 18) & 0x07));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

// Appends a string literal's bytes to `text`, each with the physical offset it was written at
// (an escape's bytes at its backslash).
void decodeLiteral(std::string_view source, const Token& token, const Spliced& spliced, std::string& text,
                   std::vector<std::uint32_t>& offsets) {
  auto emit = [&](char byte, std::size_t at) {
    text += byte;
    offsets.push_back(spliced.physical(at));
  };
  if (token.raw) {
    for (std::size_t i = token.contentBegin; i < token.contentEnd; ++i) emit(source[i], i);
    return;
  }
  for (std::size_t i = token.contentBegin; i < token.contentEnd;) {
    std::size_t start = i;
    if (source[i] != '\\' || i + 1 >= token.contentEnd) {
      emit(source[i++], start);
      continue;
    }
    char escape = source[i + 1];
    i += 2;
    switch (escape) {
      case 'n': emit('\n', start); break;
      case 't': emit('\t', start); break;
      case 'r': emit('\r', start); break;
      case 'a': emit('\a', start); break;
      case 'b': emit('\b', start); break;
      case 'f': emit('\f', start); break;
      case 'v': emit('\v', start); break;
      case 'e':
      case 'E': emit('\x1b', start); break;
      case 'x': {
        unsigned value = 0;
        while (i < token.contentEnd && hexValue(source[i]) >= 0) value = value * 16 + static_cast<unsigned>(hexValue(source[i++]));
        emit(static_cast<char>(value & 0xFF), start);
        break;
      }
      case 'u':
      case 'U': {
        std::size_t digits = escape == 'u' ? 4 : 8;
        std::uint32_t code = 0;
        for (; digits > 0 && i < token.contentEnd && hexValue(source[i]) >= 0; --digits) {
          code = code * 16 + static_cast<std::uint32_t>(hexValue(source[i++]));
        }
        std::string bytes;
        appendUtf8(bytes, code);
        for (char byte : bytes) emit(byte, start);
        break;
      }
      default:
        if (escape >= '0' && escape <= '7') {
          unsigned value = static_cast<unsigned>(escape - '0');
          for (int more = 0; more < 2 && i < token.contentEnd && source[i] >= '0' && source[i] <= '7'; ++more) {
            value = value * 8 + static_cast<unsigned>(source[i++] - '0');
          }
          emit(static_cast<char>(value & 0xFF), start);
        } else {
          emit(escape, start);  // \\ \" \' \? and unknown escapes stand for the character.
        }
    }
  }
}

bool isAsmKeyword(std::string_view word) { return word == "asm" || word == "__asm__" || word == "__asm"; }
bool isAsmQualifier(std::string_view word) {
  return word == "volatile" || word == "__volatile__" || word == "inline" || word == "__inline__" || word == "goto";
}

// Whether a template line reads as the PTX line nvcc made of it: blanks ignored, `%N`, `%=` and
// `%[name]` standing for any operand text (a register, an "n" immediate), `%%` for `%`. With
// `prefixOnly`, the template line (cut at a macro) need only match the PTX line's start.
bool templateLineMatches(std::string_view line, std::string_view ptx, bool prefixOnly) {
  struct Element {
    char c = 0;
    bool wildcard = false;
  };
  std::vector<Element> pattern;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == ' ' || c == '\t' || c == '\r') continue;
    if (c == '%' && i + 1 < line.size()) {
      char next = line[i + 1];
      std::size_t close = next == '[' ? line.find(']', i) : std::string_view::npos;
      if (isDigit(next)) {
        while (i + 1 < line.size() && isDigit(line[i + 1])) ++i;
        pattern.push_back({0, true});
        continue;
      }
      if (next == '=' || close != std::string_view::npos) {
        i = next == '=' ? i + 1 : close;
        pattern.push_back({0, true});
        continue;
      }
      if (next == '%') ++i;
    }
    pattern.push_back({c, false});
  }
  std::string text;
  for (char c : ptx) {
    if (c != ' ' && c != '\t' && c != '\r') text += c;
  }
  if (pattern.size() * (text.size() + 1) > 4'000'000) return false;  // Too long to compare.
  // matched[j]: the pattern so far matches text[0, j). An operand is one or more characters of
  // no separator.
  auto operandChar = [](char c) { return std::string_view(",;[]{}()").find(c) == std::string_view::npos; };
  std::vector<char> matched(text.size() + 1, 0), next(text.size() + 1, 0);
  matched[0] = 1;
  for (const Element& element : pattern) {
    next[0] = 0;
    for (std::size_t j = 1; j <= text.size(); ++j) {
      char c = text[j - 1];
      next[j] = element.wildcard ? operandChar(c) && (matched[j - 1] || next[j - 1]) : matched[j - 1] && c == element.c;
    }
    matched.swap(next);
  }
  return prefixOnly ? std::find(matched.begin(), matched.end(), 1) != matched.end() : matched.back() != 0;
}

}  // namespace

// Builds an index in three scans of the spliced text: the directives, the `#define`s among them
// (string macros, asm in bodies), then the code.
struct AsmSourceIndex::Builder {
  AsmSourceIndex& index;
  const Spliced& spliced;
  std::string_view text;
  // Object-like macros defined once as string literals (and names of other such macros).
  std::map<std::string_view, std::vector<Token>, std::less<>> stringMacros;
  std::map<std::string_view, std::size_t, std::less<>> macroIndex;  // Name → index.macros_.

  std::string_view spelling(const Token& token) const { return text.substr(token.begin, token.end - token.begin); }

  // Appends a string macro's bytes to the template (`depth` bounds macros naming macros).
  void expandMacro(std::string_view name, Statement& statement, int depth) const {
    for (const Token& token : stringMacros.find(name)->second) {
      if (token.kind == TokenKind::String) {
        decodeLiteral(text, token, spliced, statement.text, statement.offsets);
      } else if (depth < 8 && stringMacros.count(spelling(token)) != 0) {
        expandMacro(spelling(token), statement, depth + 1);
      } else {
        addHole(statement, token);
      }
    }
  }

  void addHole(Statement& statement, const Token& token) const {
    if (statement.holes.empty() || statement.holes.back().index != statement.text.size()) {
      statement.holes.push_back({statement.text.size(), spliced.physical(token.begin)});
    }
  }

  // The statement whose keyword `scanner` just returned; nullopt (the scanner back after the
  // keyword) when no '(' follows, or when it never closes.
  std::optional<Statement> parseStatement(Scanner& scanner, const Token& keyword) const {
    std::size_t afterKeyword = scanner.position();
    Token open = scanner.next();
    while (open.kind == TokenKind::Identifier && isAsmQualifier(spelling(open))) open = scanner.next();
    if (open.kind != TokenKind::Punctuation || text[open.begin] != '(') {
      scanner.seek(afterKeyword);
      return std::nullopt;
    }
    Statement statement;
    statement.begin = spliced.physical(keyword.begin);
    bool inTemplate = true;
    int depth = 1;
    for (Token inner = scanner.next(); inner.kind != TokenKind::End; inner = scanner.next()) {
      bool punctuation = inner.kind == TokenKind::Punctuation;
      char c = text[inner.begin];
      if (punctuation && c == ')' && --depth == 0) {
        statement.end = spliced.physical(inner.end);
        return statement;
      }
      if (!inTemplate || depth > 1 || (punctuation && c == ')')) {
        if (punctuation && c == '(') ++depth;
        continue;  // Operands, clobbers, a macro's arguments.
      }
      if (inner.kind == TokenKind::String) {
        decodeLiteral(text, inner, spliced, statement.text, statement.offsets);
        statement.textEnd = spliced.physical(inner.end);
      } else if (punctuation && c == ':') {
        inTemplate = false;
      } else if (inner.kind == TokenKind::Identifier && stringMacros.count(spelling(inner)) != 0) {
        expandMacro(spelling(inner), statement, 0);
      } else {
        addHole(statement, inner);  // Another macro (or anything else): bytes not known here.
        if (punctuation && c == '(') ++depth;
      }
    }
    return std::nullopt;  // Unterminated.
  }

  struct Define {
    std::string_view name;
    std::size_t bodyBegin = 0;
    std::size_t bodyEnd = 0;
    bool functionLike = false;
  };

  std::optional<Define> parseDefine(std::size_t begin, std::size_t end) const {
    std::size_t at = begin + 1;
    auto skipBlanks = [&] {
      while (at < end && (text[at] == ' ' || text[at] == '\t')) ++at;
    };
    skipBlanks();
    if (text.substr(at, 6) != "define") return std::nullopt;
    at += 6;
    skipBlanks();
    std::size_t name = at;
    while (at < end && isIdentifierChar(text[at])) ++at;
    if (at == name || !isIdentifierStart(text[name])) return std::nullopt;
    Define define{text.substr(name, at - name), at, end, false};
    if (at < end && text[at] == '(') {
      std::size_t close = text.find(')', at);
      if (close == std::string_view::npos || close >= end) return std::nullopt;
      define.functionLike = true;
      define.bodyBegin = close + 1;
    }
    return define;
  }

  std::vector<Token> bodyTokens(const Define& define) const {
    Scanner body(text.substr(0, define.bodyEnd), false);
    body.seek(define.bodyBegin);
    std::vector<Token> tokens;
    for (Token token = body.next(); token.kind != TokenKind::End; token = body.next()) tokens.push_back(token);
    return tokens;
  }

  void build() {
    std::vector<std::pair<std::size_t, std::size_t>> directives;
    Scanner first(text, true, &directives);
    while (first.next().kind != TokenKind::End) {
    }
    std::vector<Define> defines;
    std::map<std::string_view, int, std::less<>> definitions;
    for (auto [begin, end] : directives) {
      if (auto define = parseDefine(begin, end)) {
        defines.push_back(*define);
        ++definitions[define->name];
      }
    }
    for (const Define& define : defines) {
      if (define.functionLike || definitions[define.name] != 1) continue;
      std::vector<Token> tokens = bodyTokens(define);
      bool strings = !tokens.empty() && std::all_of(tokens.begin(), tokens.end(), [](const Token& t) {
        return t.kind == TokenKind::String || t.kind == TokenKind::Identifier;
      });
      if (strings) stringMacros.emplace(define.name, std::move(tokens));
    }
    // asm in the bodies, and the names each body uses.
    std::map<std::string_view, std::vector<std::string_view>, std::less<>> names;
    for (const Define& define : defines) {
      Scanner body(text.substr(0, define.bodyEnd), false);
      body.seek(define.bodyBegin);
      std::vector<std::size_t> found;
      for (Token token = body.next(); token.kind != TokenKind::End; token = body.next()) {
        if (token.kind != TokenKind::Identifier) continue;
        if (!isAsmKeyword(spelling(token))) {
          names[define.name].push_back(spelling(token));
        } else if (auto statement = parseStatement(body, token)) {
          found.push_back(index.macroStatements_.size());
          index.macroStatements_.push_back(std::move(*statement));
        }
      }
      if (found.empty()) continue;
      auto [entry, added] = macroIndex.emplace(define.name, index.macros_.size());
      if (added) index.macros_.emplace_back();
      auto& statements = index.macros_[entry->second].statements;
      statements.insert(statements.end(), found.begin(), found.end());
    }
    // Macros naming macros with asm have asm too.
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [name, used] : names) {
        for (std::string_view use : used) {
          auto target = macroIndex.find(use);
          if (target == macroIndex.end() || use == name) continue;
          auto [entry, added] = macroIndex.emplace(name, index.macros_.size());
          if (added) {
            index.macros_.emplace_back();
            changed = true;
          }
          auto& uses = index.macros_[entry->second].uses;
          if (std::find(uses.begin(), uses.end(), target->second) == uses.end()) {
            uses.push_back(target->second);
            changed = true;
          }
        }
      }
    }
    // The code: statements, and where macros with asm are invoked.
    Scanner code(text);
    std::vector<std::uint32_t> groups;  // The lines of the open parentheses' openers.
    Token previous;
    for (Token token = code.next(); token.kind != TokenKind::End; previous = token, token = code.next()) {
      if (token.kind == TokenKind::Punctuation) {
        // A group's opener is the name before its '(' (a macro invocation's line is the name's).
        if (text[token.begin] == '(') {
          std::size_t opener = previous.kind == TokenKind::Identifier ? previous.begin : token.begin;
          groups.push_back(index.lineOf(spliced.physical(opener)));
        } else if (text[token.begin] == ')' && !groups.empty()) {
          groups.pop_back();
        }
        continue;
      }
      if (token.kind != TokenKind::Identifier) continue;
      if (auto macro = macroIndex.find(spelling(token)); macro != macroIndex.end()) {
        index.invocations_[index.lineOf(spliced.physical(token.begin))].push_back(macro->second);
        for (std::uint32_t line : groups) index.invocations_[line].push_back(macro->second);
        continue;
      }
      if (!isAsmKeyword(spelling(token))) continue;
      std::optional<Statement> statement = parseStatement(code, token);
      if (!statement) {
        if (code.position() >= text.size()) break;  // Unterminated: nothing after it is a statement.
        continue;
      }
      statement->groupLines = groups;
      index.statements_.push_back(std::move(*statement));
    }
  }
};

AsmSourceIndex::AsmSourceIndex(std::string_view source) {
  lineStarts_.push_back(0);
  for (std::size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '\n') lineStarts_.push_back(static_cast<std::uint32_t>(i + 1));
  }
  Spliced spliced(source);
  Builder builder{*this, spliced, spliced.text(), {}, {}};
  builder.build();
}

std::uint32_t AsmSourceIndex::lineOf(std::uint32_t offset) const {
  auto after = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  return static_cast<std::uint32_t>(after - lineStarts_.begin());
}

std::uint32_t AsmSourceIndex::columnOf(std::uint32_t offset) const { return offset - lineStarts_[lineOf(offset) - 1] + 1; }

std::vector<std::optional<AsmSourceIndex::LineStart>> AsmSourceIndex::lineStarts(
    const Statement& statement, std::optional<std::size_t> lineCount) const {
  const std::string& text = statement.text;
  std::vector<std::size_t> newlines;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') newlines.push_back(i);
  }
  std::vector<std::optional<LineStart>> starts;
  std::size_t known = text.empty() && statement.holes.empty() ? 0 : newlines.size() + 1;
  if (lineCount && (statement.holes.empty() ? *lineCount != known : *lineCount < known)) return {};
  if (statement.holes.empty() || (lineCount && *lineCount == known)) {
    // Every line break is the literals' own.
    if (known > 0) starts.push_back(LineStart{0});
    for (std::size_t newline : newlines) starts.push_back(LineStart{newline + 1});
    return starts;
  }
  // The macros add lines: lines up to the first macro count from the front; with the block's
  // line count, lines from the last macro on count from the back.
  std::size_t firstHole = statement.holes.front().index;
  std::size_t lastHole = statement.holes.back().index;
  std::size_t prefix = 0;
  while (prefix < newlines.size() && newlines[prefix] < firstHole) ++prefix;
  starts.resize(lineCount.value_or(prefix + 1));
  starts[0] = LineStart{0};
  for (std::size_t j = 0; j < prefix; ++j) starts[j + 1] = LineStart{newlines[j] + 1};
  if (lineCount) {
    std::size_t suffix = newlines.size();
    while (suffix > 0 && newlines[suffix - 1] >= lastHole) --suffix;
    std::size_t after = newlines.size() - suffix;  // Line breaks after the last macro.
    starts[*lineCount - 1 - after] = LineStart{lastHole, true};
    for (std::size_t j = suffix; j < newlines.size(); ++j) starts[*lineCount - (newlines.size() - j)] = LineStart{newlines[j] + 1};
  }
  return starts;
}

AsmTemplateLine AsmSourceIndex::keywordLine(const Statement& statement) const {
  AsmTemplateLine result;
  result.asmLine = result.line = lineOf(statement.begin);
  result.asmColumn = result.column = columnOf(statement.begin);
  result.offset = statement.begin;
  return result;
}

AsmTemplateLine AsmSourceIndex::templateLine(const Statement& statement, LineStart start) const {
  AsmTemplateLine result = keywordLine(statement);
  const std::string& text = statement.text;
  auto holeAt = [&](std::size_t index) {
    auto hole = std::find_if(statement.holes.begin(), statement.holes.end(), [&](const Hole& h) { return h.index == index; });
    return hole == statement.holes.end() ? nullptr : &*hole;
  };
  const Hole* opening = start.afterMacro ? holeAt(start.index) : nullptr;
  std::size_t first = start.index;
  while (first < text.size() && (text[first] == ' ' || text[first] == '\t') && (opening || !holeAt(first))) ++first;
  bool content = first < text.size() && text[first] != '\n';
  if (const Hole* hole = opening ? nullptr : holeAt(first)) {
    result.offset = hole->offset;  // The line's first bytes are a macro's: the macro's name.
  } else if (content) {
    result.offset = statement.offsets[first];  // The line's first non-blank known character.
  } else if (opening) {
    result.offset = opening->offset;  // Only a macro's bytes and blanks: the macro's name.
  } else if (start.index < text.size()) {
    result.offset = statement.offsets[start.index];  // A blank line: where it begins.
  } else {
    result.offset = statement.textEnd;  // The empty line after a final "\n".
  }
  result.line = lineOf(result.offset);
  result.column = columnOf(result.offset);
  result.exact = true;
  return result;
}

std::optional<AsmTemplateLine> AsmSourceIndex::locate(const AsmBlockQuery& query) const {
  if (query.locLine == 0 || query.locLine > lineStarts_.size()) return std::nullopt;
  // Statements spanning the line, the one holding the `.loc` column first, then the nearest.
  std::vector<const Statement*> candidates;
  for (auto it = statements_.rbegin(); it != statements_.rend(); ++it) {
    if (lineOf(it->begin) > query.locLine) continue;
    if (lineOf(it->end - 1) < query.locLine) break;
    candidates.push_back(&*it);
  }
  if (query.locColumn > 0 && !candidates.empty()) {
    std::uint32_t at = lineStarts_[query.locLine - 1] + query.locColumn - 1;
    std::stable_partition(candidates.begin(), candidates.end(),
                          [&](const Statement* s) { return s->begin <= at && at < s->end; });
  }
  // Else statements in the arguments or the definitions of macros invoked on the line: weaker
  // evidence, so with the block's lines only one whose known lines all read as the block's.
  bool inArguments = candidates.empty();
  if (inArguments) {
    for (const Statement& statement : statements_) {
      if (std::find(statement.groupLines.begin(), statement.groupLines.end(), query.locLine) != statement.groupLines.end()) {
        candidates.push_back(&statement);
      }
    }
    if (auto invoked = invocations_.find(query.locLine); invoked != invocations_.end()) {
      std::vector<std::size_t> pending = invoked->second;
      std::vector<bool> seen(macros_.size(), false);
      while (!pending.empty()) {
        std::size_t macro = pending.back();
        pending.pop_back();
        if (seen[macro]) continue;
        seen[macro] = true;
        for (std::size_t statement : macros_[macro].statements) candidates.push_back(&macroStatements_[statement]);
        pending.insert(pending.end(), macros_[macro].uses.begin(), macros_[macro].uses.end());
      }
    }
  }
  if (candidates.empty()) return std::nullopt;
  std::optional<std::size_t> lineCount;
  if (query.blockLines) lineCount = query.blockLines->size();
  // The best: the fewest known lines that differ from the block's, then the most that agree.
  const Statement* best = nullptr;
  std::vector<std::optional<LineStart>> bestStarts;
  std::size_t bestDiffering = 0, bestAgreeing = 0;
  for (const Statement* statement : candidates) {
    auto starts = lineStarts(*statement, lineCount);
    if (starts.empty()) continue;
    std::size_t differing = 0, agreeing = 0;
    for (std::size_t k = 0; query.blockLines && k < starts.size(); ++k) {
      if (!starts[k] || starts[k]->afterMacro) continue;
      std::size_t begin = starts[k]->index;
      std::string_view line = std::string_view(statement->text).substr(begin);
      line = line.substr(0, line.find('\n'));
      bool cut = false;
      for (const Hole& hole : statement->holes) {
        if (hole.index >= begin && hole.index - begin < line.size()) {
          line = line.substr(0, hole.index - begin);
          cut = true;
        }
      }
      ++(templateLineMatches(line, (*query.blockLines)[k], cut) ? agreeing : differing);
    }
    if (inArguments && differing > 0) continue;
    if (best == nullptr || differing < bestDiffering || (differing == bestDiffering && agreeing > bestAgreeing)) {
      best = statement;
      bestDiffering = differing;
      bestAgreeing = agreeing;
      bestStarts = std::move(starts);
    }
  }
  if (best == nullptr) {
    if (inArguments) return std::nullopt;
    return keywordLine(*candidates.front());
  }
  if (query.lineOffset < bestStarts.size() && bestStarts[query.lineOffset]) {
    return templateLine(*best, *bestStarts[query.lineOffset]);
  }
  return keywordLine(*best);
}

SourceLocation locateInSource(const PtxLineLocation& at, const AsmSourceIndex* source) {
  SourceLocation result;
  result.file = at.file;
  result.insideInlineAsm = at.insideInlineAsm;
  result.lineOffsetInBlock = at.lineOffsetInBlock;
  if (!at.hasLoc || at.loc.line == 0) return result;
  result.line = result.locLine = at.loc.line;
  result.column = at.loc.column;
  if (!at.insideInlineAsm || source == nullptr) return result;
  auto found = source->locate({at.loc.line, at.loc.column, at.lineOffsetInBlock, at.blockLines});
  if (!found) return result;
  result.asmFound = true;
  result.asmLine = found->asmLine;
  result.exact = found->exact;
  result.line = found->line;
  result.column = found->column;
  return result;
}

}  // namespace ptx::oracle

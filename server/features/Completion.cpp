// Completion: lexes the enclosing function up to the cursor (and, for labels, to its end),
// decides what the cursor's statement expects, and lists the fitting items.
#include "features/Completion.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <span>
#include <unordered_set>

#include "isa/HoverDocs.h"
#include "isa/InstructionForms.h"
#include "isa/IsaReference.h"

namespace ptx::lsp {
namespace {

// ── Lexing ──────────────────────────────────────────────────────────────────────────────
//
// A small PTX lexer, independent of the tree: the statement under the cursor is usually
// incomplete, and tree-sitter's error recovery may join it with the next statement.

enum class TokenKind : std::uint8_t { End, Word, Dotted, Number, String, Comment, Punct };

struct Token {
  TokenKind kind = TokenKind::End;
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  bool lineStart = false;   // A newline separates it from the previous token.
  bool unterminated = false;  // A string or comment that runs to the end of its line or text.
};

bool isIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}

bool isIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

class Lexer {
 public:
  Lexer(std::string_view text, std::uint32_t position) : text_(text), pos_(position) {}

  Token next() {
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

 private:
  static bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

  void skipLine() {
    std::size_t newline = text_.find('\n', pos_);
    pos_ = newline == std::string_view::npos ? static_cast<std::uint32_t>(text_.size())
                                             : static_cast<std::uint32_t>(newline);
  }

  std::string_view text_;
  std::uint32_t pos_;
  bool pendingNewline_ = false;
};

// ── Vocabulary ──────────────────────────────────────────────────────────────────────────

constexpr std::string_view kLinkages[] = {".visible", ".extern", ".weak", ".common"};
constexpr std::string_view kDeclarationSpaces[] = {".reg", ".sreg", ".const", ".global",
                                                   ".local", ".param", ".shared", ".tex"};

bool contains(std::span<const std::string_view> list, std::string_view word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

bool isLinkage(std::string_view word) { return contains(kLinkages, word); }
bool isDeclarationSpace(std::string_view word) { return contains(kDeclarationSpaces, word); }
bool isVectorWidth(std::string_view word) { return word == ".v2" || word == ".v4" || word == ".v8"; }
bool isFunctionKeyword(std::string_view word) { return word == ".entry" || word == ".func"; }

// Directives whose statement ends at the end of the line, without `;`.
bool endsAtNewline(std::string_view word) {
  return word == ".version" || word == ".target" || word == ".address_size" || word == ".file" || word == ".loc";
}

// ── Declarations found in the text ─────────────────────────────────────────────────────

struct Decl {
  std::string_view name;
  CompletionKind kind = CompletionKind::Variable;
  std::string_view space;
  std::string_view type;
  std::uint32_t rangeCount = 0;
  std::uint32_t vectorWidth = 0;
  bool isEntry = false;
};

enum class BlockKind : std::uint8_t { Function, Nested, Section };

struct Block {
  BlockKind kind = BlockKind::Nested;
  std::size_t declMark = 0;
  std::size_t labelMark = 0;
};

// Walks the text from `begin` (a statement start outside any body: the text's start or the
// nearest `.entry`/`.func` keyword before the cursor), keeping the statement, block and
// declaration state, and stops at the cursor; collectLaterLabels then goes on to the end of
// the enclosing function for the labels a branch may name before their definition.
class Scanner {
 public:
  Scanner(std::string_view text, std::uint32_t begin, std::uint32_t cursor)
      : text_(text), lexer_(text, begin), cursor_(cursor) {}

  void runToCursor() {
    while (true) {
      Token token = lexer_.next();
      bool straddles = token.kind != TokenKind::End && token.begin < cursor_ && cursor_ < token.end;
      if (token.kind == TokenKind::End || token.begin >= cursor_ || straddles) {
        pending_ = token;
        if (straddles) {
          if (token.kind == TokenKind::Comment || token.kind == TokenKind::String) {
            inert_ = true;
            return;
          }
          pending_ = Token{};  // The word under the cursor is consumed here.
          Token typed = token;
          typed.end = cursor_;
          maybeRestart(typed);
          word_ = typed;
        }
        break;
      }
      if (token.kind == TokenKind::Comment || token.kind == TokenKind::String) {
        // The cursor at the end of a line comment, or of an unclosed string or comment, is
        // still inside it.
        if (token.end == cursor_ && token.unterminated) {
          inert_ = true;
          return;
        }
        if (token.kind == TokenKind::Comment) continue;
      }
      handle(token);
    }
    if (word_.kind == TokenKind::End) {
      // The cursor right after a word means that word (`ld.glo|`, `%r|`, `ld.|`).
      if (!statement_.empty() && statement_.back().end == cursor_ &&
          (isWordLike(statement_.back()) || isPunct(statement_.back(), '.') || isPunct(statement_.back(), '%'))) {
        word_ = statement_.back();
        statement_.pop_back();
      } else {
        Token empty;
        empty.kind = TokenKind::Word;
        empty.begin = empty.end = cursor_;
        std::uint32_t last = statement_.empty() ? cursor_ : statement_.back().end;
        empty.lineStart = text_.substr(last, cursor_ - last).find('\n') != std::string_view::npos;
        maybeRestart(empty);
        word_ = empty;
        word_.kind = TokenKind::End;
      }
    }
    minDepth_ = blocks_.size();
  }

  // Continues past the cursor to the end of the enclosing function, collecting the labels
  // visible at the cursor: those of its block and of the blocks around it.
  void collectLaterLabels() {
    if (functionDepth_ == 0 || inert_) return;
    afterCursor_ = true;
    // The token the cursor stopped at is still to be handled, unless it was the word typed.
    Token token = pending_.kind == TokenKind::End ? lexer_.next() : pending_;
    while (token.kind != TokenKind::End && !stopped_) {
      if (token.kind != TokenKind::Comment) handle(token);
      token = lexer_.next();
    }
  }

  bool inert() const { return inert_; }
  bool inFunction() const { return functionDepth_ != 0; }
  bool inSection() const { return !blocks_.empty() && blocks_.back().kind == BlockKind::Section; }
  const std::vector<Token>& statement() const { return statement_; }
  // The word being typed ([begin, cursor)); kind End when none (begin == end == cursor).
  const Token& word() const { return word_; }
  const std::vector<Decl>& decls() const { return decls_; }
  const std::vector<Decl>& labels() const { return labels_; }

  std::string_view slice(const Token& token) const { return text_.substr(token.begin, token.end - token.begin); }

 private:
  static bool isWordLike(const Token& token) {
    return token.kind == TokenKind::Word || token.kind == TokenKind::Dotted || token.kind == TokenKind::Number;
  }

  bool isPunct(const Token& token, char c) const {
    return token.kind == TokenKind::Punct && text_[token.begin] == c;
  }

  // The first token after linkage words, or nullptr.
  const Token* head() const {
    for (const Token& token : statement_) {
      if (!(token.kind == TokenKind::Dotted && isLinkage(slice(token)))) return &token;
    }
    return nullptr;
  }

  bool isFunctionHeader() const {
    const Token* first = head();
    return first != nullptr && first->kind == TokenKind::Dotted && isFunctionKeyword(slice(*first));
  }

  // A missing `;` is common while typing. When a line starts with what can only begin a
  // statement and the line before ended without a continuation (`,`, an open bracket, an
  // operator), the statement before is taken as ended.
  void maybeRestart(const Token& token) {
    if (!token.lineStart || statement_.empty()) return;
    const Token& first = statement_.front();
    if (first.kind == TokenKind::Dotted && endsAtNewline(slice(first))) {
      endStatement();
      return;
    }
    if (paren_ > 0 || bracket_ > 0 || brace_ > 0) return;
    const Token& last = statement_.back();
    if (last.kind == TokenKind::Punct && std::string_view(",([{+-*/|&=!<>?:~^%").find(text_[last.begin]) !=
                                             std::string_view::npos) {
      return;
    }
    bool header = isFunctionHeader();
    bool restarts = false;
    if (token.kind == TokenKind::Dotted) {
      std::string_view word = slice(token);
      restarts = !header || isLinkage(word) || isFunctionKeyword(word) || isDeclarationSpace(word);
    } else if (token.kind == TokenKind::Word) {
      restarts = !header && text_[token.begin] != '%';
    } else if (isPunct(token, '@')) {
      restarts = !header;
    }
    if (restarts) endStatement();
  }

  void handle(const Token& token) {
    if (afterCursor_ && statement_.empty() && token.kind == TokenKind::Dotted &&
        (isFunctionKeyword(slice(token)) || isLinkage(slice(token)))) {
      stopped_ = true;  // The enclosing body was never closed; the next function begins.
      return;
    }
    maybeRestart(token);
    if (token.kind == TokenKind::Punct) {
      switch (text_[token.begin]) {
        case ';':
          if (paren_ == 0) {
            endStatement();
            return;
          }
          break;
        case '{':
          if (statement_.empty()) {
            openBlock(BlockKind::Nested);
            return;
          }
          if (paren_ == 0 && isFunctionHeader()) {
            openFunctionBody();
            return;
          }
          if (head() != nullptr && slice(*head()) == ".section") {
            endStatement();
            openBlock(BlockKind::Section);
            return;
          }
          ++brace_;  // An initializer list or a vector operand.
          break;
        case '}':
          if (brace_ > 0) {
            --brace_;
            break;
          }
          endStatement();
          closeBlock();
          return;
        case ':':
          if (statement_.size() == 1 && statement_[0].kind == TokenKind::Word &&
              (token.end >= text_.size() || text_[token.end] != ':')) {
            addLabel(statement_[0]);
            statement_.clear();
            return;
          }
          break;
        case '(': ++paren_; break;
        case ')': paren_ = std::max(paren_ - 1, 0); break;
        case '[': ++bracket_; break;
        case ']': bracket_ = std::max(bracket_ - 1, 0); break;
        default: break;
      }
    }
    statement_.push_back(token);
  }

  void endStatement() {
    if (!afterCursor_) processStatement();
    statement_.clear();
    paren_ = bracket_ = brace_ = 0;
  }

  void openBlock(BlockKind kind) {
    blocks_.push_back(Block{kind, decls_.size(), labels_.size()});
    if (kind == BlockKind::Function) functionDepth_ = blocks_.size();
  }

  void closeBlock() {
    if (blocks_.empty()) return;  // A stray `}`.
    Block block = blocks_.back();
    blocks_.pop_back();
    if (afterCursor_) {
      if (blocks_.size() < minDepth_) minDepth_ = blocks_.size();
      if (block.kind == BlockKind::Function) stopped_ = true;
      return;
    }
    // Names of a closed block are out of scope at the cursor.
    decls_.resize(block.declMark);
    labels_.resize(block.labelMark);
    if (block.kind == BlockKind::Function) functionDepth_ = 0;
  }

  void addLabel(const Token& name) {
    if (functionDepth_ == 0) return;  // Labels of debug sections are no branch targets.
    if (afterCursor_ && blocks_.size() > minDepth_) return;  // Inside a block the cursor is not in.
    Decl label;
    label.name = slice(name);
    label.kind = CompletionKind::Label;
    labels_.push_back(label);
  }

  void openFunctionBody() {
    if (afterCursor_) {
      stopped_ = true;
      return;
    }
    std::vector<Decl> parameters = readSignature();
    statement_.clear();
    paren_ = bracket_ = brace_ = 0;
    openBlock(BlockKind::Function);
    decls_.insert(decls_.end(), parameters.begin(), parameters.end());
  }

  // Adds the function's name to the declarations and returns its parameters (return
  // parameters included: the body may use them too).
  std::vector<Decl> readSignature() {
    std::vector<Decl> parameters;
    const Token* first = head();
    if (first == nullptr) return parameters;
    std::size_t i = static_cast<std::size_t>(first - statement_.data());
    bool named = false;
    int depth = 0;
    std::size_t parameterStart = 0;
    for (std::size_t j = i + 1; j < statement_.size(); ++j) {
      const Token& token = statement_[j];
      if (isPunct(token, '(')) {
        if (++depth == 1) parameterStart = j + 1;
      } else if (isPunct(token, ')')) {
        if (depth == 1) readParameter(parameterStart, j, parameters);
        depth = std::max(depth - 1, 0);
      } else if (isPunct(token, ',') && depth == 1) {
        readParameter(parameterStart, j, parameters);
        parameterStart = j + 1;
      } else if (token.kind == TokenKind::Word && depth == 0 && !named) {
        named = true;
        Decl function;
        function.name = slice(token);
        function.kind = CompletionKind::Function;
        function.isEntry = slice(*first) == ".entry";
        decls_.push_back(function);
      }
    }
    return parameters;
  }

  void readParameter(std::size_t begin, std::size_t end, std::vector<Decl>& out) const {
    Decl parameter;
    parameter.kind = CompletionKind::Parameter;
    for (std::size_t j = begin; j < end; ++j) {
      const Token& token = statement_[j];
      std::string_view word = slice(token);
      if (token.kind == TokenKind::Dotted) {
        if (parameter.space.empty() && (word == ".param" || word == ".reg")) parameter.space = word;
        if (parameter.type.empty() && findType(word) != nullptr) parameter.type = word;
        if (isVectorWidth(word)) parameter.vectorWidth = static_cast<std::uint32_t>(word[2] - '0');
      } else if (token.kind == TokenKind::Word && parameter.name.empty()) {
        parameter.name = word;
      }
    }
    if (!parameter.name.empty() && parameter.name != "_") out.push_back(parameter);
  }

  void processStatement() {
    const Token* first = head();
    if (first == nullptr || first->kind != TokenKind::Dotted) return;
    std::string_view word = slice(*first);
    if (isDeclarationSpace(word)) {
      readDeclaration(static_cast<std::size_t>(first - statement_.data()));
    } else if (isFunctionKeyword(word)) {
      readSignature();  // A prototype: its name only.
    }
  }

  // `.reg .b32 %r<10>, %x;`, `.shared .align 8 .b8 buf[64];`, `.global .u32 g = 1;`.
  void readDeclaration(std::size_t spaceIndex) {
    Decl model;
    model.space = slice(statement_[spaceIndex]);
    model.kind = model.space == ".reg" ? CompletionKind::Register : CompletionKind::Variable;
    std::size_t n = statement_.size();
    std::size_t j = spaceIndex + 1;
    int depth = 0;
    for (; j < n; ++j) {
      const Token& token = statement_[j];
      if (isPunct(token, '(')) ++depth;
      if (isPunct(token, ')')) depth = std::max(depth - 1, 0);
      if (depth > 0) continue;  // `.attribute(.managed)`
      std::string_view spelled = slice(token);
      if (token.kind == TokenKind::Dotted && findType(spelled) != nullptr) model.type = spelled;
      if (token.kind == TokenKind::Dotted && isVectorWidth(spelled)) {
        model.vectorWidth = static_cast<std::uint32_t>(spelled[2] - '0');
      }
      if (token.kind == TokenKind::Word) break;
    }
    while (j < n) {
      if (statement_[j].kind == TokenKind::Word) {
        Decl decl = model;
        decl.name = slice(statement_[j]);
        if (j + 3 < n && isPunct(statement_[j + 1], '<') && statement_[j + 2].kind == TokenKind::Number &&
            isPunct(statement_[j + 3], '>')) {
          std::string_view count = slice(statement_[j + 2]);
          std::from_chars(count.data(), count.data() + count.size(), decl.rangeCount);
        }
        if (decl.name != "_") decls_.push_back(decl);
      }
      // On to the next declarator, past dimensions and initializers.
      depth = 0;
      for (++j; j < n; ++j) {
        const Token& token = statement_[j];
        if (isPunct(token, '(') || isPunct(token, '[') || isPunct(token, '{')) ++depth;
        if (isPunct(token, ')') || isPunct(token, ']') || isPunct(token, '}')) depth = std::max(depth - 1, 0);
        if (isPunct(token, ',') && depth == 0) {
          ++j;
          break;
        }
      }
    }
  }

  std::string_view text_;
  Lexer lexer_;
  std::uint32_t cursor_;
  std::vector<Token> statement_;
  std::vector<Block> blocks_;
  std::vector<Decl> decls_;
  std::vector<Decl> labels_;
  std::size_t functionDepth_ = 0;  // Index + 1 of the function body among blocks_; 0 outside.
  std::size_t minDepth_ = 0;       // After the cursor: the shallowest block depth reached.
  int paren_ = 0;
  int bracket_ = 0;
  int brace_ = 0;
  bool inert_ = false;
  bool afterCursor_ = false;
  bool stopped_ = false;
  Token word_;
  Token pending_;
};

// Whether `text[at, at + length)` is a whole dotted word.
bool isWholeWord(std::string_view text, std::size_t at, std::size_t length) {
  bool startOk = at == 0 || !(isIdentifierChar(text[at - 1]) || text[at - 1] == '.' || text[at - 1] == ':');
  bool endOk = at + length >= text.size() || !isIdentifierChar(text[at + length]);
  return startOk && endOk;
}

// Where the scan starts: the nearest `.entry` or `.func` keyword before the cursor (outside
// a line comment), or the start of the text. Everything before it lies outside the
// cursor's function, so the model's module-level declarations cover it. One backward pass,
// so the cost is the distance to that keyword, not the size of the text.
std::uint32_t scanStart(std::string_view text, std::uint32_t cursor) {
  for (std::size_t at = cursor; at-- > 0;) {
    if (text[at] != '.') continue;
    std::string_view rest = text.substr(at + 1, 5);
    std::size_t length = rest.starts_with("entry") ? 6 : rest.starts_with("func") ? 5 : 0;
    if (length == 0 || at + length > cursor || !isWholeWord(text, at, length)) continue;
    std::size_t lineStart = text.rfind('\n', at);
    lineStart = lineStart == std::string_view::npos ? 0 : lineStart + 1;
    if (text.substr(lineStart, at - lineStart).find("//") == std::string_view::npos) {
      return static_cast<std::uint32_t>(at);
    }
  }
  return 0;
}

std::uint32_t clampOffset(std::string_view text, std::uint32_t offset) {
  if (offset > text.size()) offset = static_cast<std::uint32_t>(text.size());
  // Inside a multibyte character: move to its first byte.
  while (offset > 0 && offset < text.size() && (static_cast<unsigned char>(text[offset]) & 0xC0) == 0x80) --offset;
  return offset;
}

// ── Item text ───────────────────────────────────────────────────────────────────────────

// Joins pieces into one string. (Spelled out because GCC 12 reports a false -Wrestrict
// on `"literal" + std::string` at -O3.)
template <typename... Pieces>
std::string concat(const Pieces&... pieces) {
  std::string out;
  (out.append(std::string_view(pieces)), ...);
  return out;
}

// The first sentence of a summary, for a one-line detail.
std::string firstSentence(std::string_view summary) {
  std::size_t end = summary.find(". ");
  if (end != std::string_view::npos) summary = summary.substr(0, end + 1);
  return std::string(summary);
}

std::string typeDetail(const Decl& decl) {
  std::string out;
  if (decl.vectorWidth != 0) {
    out += ".v";
    out += std::to_string(decl.vectorWidth);
    out += ' ';
  }
  out += decl.type;
  return out;
}

// Short explanations of common modifiers, in our own words, for completion documentation.
std::string_view modifierSummary(std::string_view family, std::string_view value) {
  struct Entry {
    std::string_view value;
    std::string_view summary;
  };
  static constexpr Entry kHalves[] = {
      {".hi", "Keep the upper half of the double-width product."},
      {".lo", "Keep the lower half of the double-width product."},
  };
  static constexpr Entry kEntries[] = {
      {".rn", "Round to nearest, ties to even."},
      {".rna", "Round to nearest, ties away from zero."},
      {".rz", "Round towards zero."},
      {".rm", "Round towards negative infinity."},
      {".rp", "Round towards positive infinity."},
      {".rs", "Stochastic rounding, driven by a random-bits operand."},
      {".rni", "Round to the nearest integral value, ties to even."},
      {".rzi", "Round to the integral value towards zero."},
      {".rmi", "Round to the integral value towards negative infinity."},
      {".rpi", "Round to the integral value towards positive infinity."},
      {".ftz", "Flush subnormal inputs and results to zero, keeping the sign."},
      {".sat", "Saturate: clamp the result to the range of the type (to [0.0, 1.0] for floats)."},
      {".approx", "A fast approximation instead of the IEEE-exact result."},
      {".full", "Full-range approximation with a bounded error."},
      {".wide", "The result is twice as wide as the sources."},
      {".cc", "Also write the carry-out, for a following addc/subc/madc."},
      {".uni", "Assert that all active threads of the warp take the same path."},
      {".sync", "Warp-synchronous: the participating threads are named by a member mask."},
      {".aligned", "Every thread of the warp (or warpgroup) executes this same instruction."},
      {".cta", "Scope: the threads of the same CTA."},
      {".cluster", "Scope: the threads of the same cluster."},
      {".gpu", "Scope: all threads of the program on this GPU."},
      {".sys", "Scope: all threads of the program, host and peer GPUs included."},
      {".weak", "An ordinary memory operation with no ordering guarantees."},
      {".relaxed", "A strong operation at the given scope, without ordering of other accesses."},
      {".acquire", "Later accesses of this thread cannot move before this one."},
      {".release", "Earlier accesses of this thread cannot move after this one."},
      {".acq_rel", "Both acquire and release ordering."},
      {".volatile", "Not cached or merged; behaves like a relaxed access at system scope."},
      {".mmio", "A memory-mapped I/O access, performed exactly once."},
      {".nc", "Read through the non-coherent, read-only cache."},
      {".ca", "Cache the line in all levels (L1 and L2)."},
      {".cg", "Cache the line in L2 only, bypassing L1."},
      {".cs", "Streaming: the data is likely used once, evict it first."},
      {".lu", "Last use: the line may be dropped after this read."},
      {".cv", "Do not cache: fetch the data again on every access."},
      {".wb", "Write back through the coherent cache levels."},
      {".wt", "Write through to system memory."},
      {".v2", "A vector of 2 elements, moved in one access."},
      {".v4", "A vector of 4 elements, moved in one access."},
      {".v8", "A vector of 8 elements, moved in one access."},
      {".L2::cache_hint", "Takes a 64-bit cache policy operand (see createpolicy)."},
      {".L2::64B", "Prefetch 64 bytes into L2 along with the access."},
      {".L2::128B", "Prefetch 128 bytes into L2 along with the access."},
      {".L2::256B", "Prefetch 256 bytes into L2 along with the access."},
      {".L1::evict_normal", "L1 eviction priority: normal."},
      {".L1::evict_first", "L1 eviction priority: evict this line first."},
      {".L1::evict_last", "L1 eviction priority: keep this line longer."},
      {".L1::evict_unchanged", "L1 eviction priority: leave the line's priority as it is."},
      {".L1::no_allocate", "Do not allocate the line in L1."},
      {".L2::evict_normal", "L2 eviction priority: normal."},
      {".L2::evict_first", "L2 eviction priority: evict this line first."},
      {".L2::evict_last", "L2 eviction priority: keep this line longer."},
      {".eq", "Compare: equal."},
      {".ne", "Compare: not equal."},
      {".lt", "Compare: less than."},
      {".le", "Compare: less than or equal."},
      {".gt", "Compare: greater than."},
      {".ge", "Compare: greater than or equal."},
      {".lo", "Compare, unsigned: lower."},
      {".ls", "Compare, unsigned: lower or same."},
      {".hi", "Compare, unsigned: higher."},
      {".hs", "Compare, unsigned: higher or same."},
      {".equ", "Compare, floating point: equal or unordered (NaN)."},
      {".neu", "Compare, floating point: not equal or unordered."},
      {".ltu", "Compare, floating point: less than or unordered."},
      {".leu", "Compare, floating point: less or equal, or unordered."},
      {".gtu", "Compare, floating point: greater than or unordered."},
      {".geu", "Compare, floating point: greater or equal, or unordered."},
      {".num", "Compare, floating point: both operands are numbers."},
      {".nan", "Compare, floating point: either operand is NaN."},
      {".and", "Combine the result with the predicate operand by AND."},
      {".or", "Combine the result with the predicate operand by OR."},
      {".xor", "Combine the result with the predicate operand by XOR."},
  };
  if (family == "mul" || family == "mad" || family == "mul24" || family == "mad24") {
    for (const Entry& entry : kHalves) {
      if (entry.value == value) return entry.summary;
    }
  }
  for (const Entry& entry : kEntries) {
    if (entry.value == value) return entry.summary;
  }
  return {};
}

std::string stateSpaceMarkdown(const StateSpaceInfo& info, std::string_view spelled) {
  std::string out = "**";
  out += spelled;
  out += "** — state space\n\n";
  out += info.summary;
  out += '\n';
  return out;
}

// ── Static item lists ───────────────────────────────────────────────────────────────────

CompletionItem makeItem(std::string_view label, CompletionKind kind, std::string detail, std::string documentation,
                        std::string sortText) {
  CompletionItem item;
  item.label = std::string(label);
  item.kind = kind;
  item.detail = std::move(detail);
  item.documentation = std::move(documentation);
  item.insertText = item.label;
  item.sortText = std::move(sortText);
  return item;
}

const std::vector<CompletionItem>& opcodeItems() {
  static const std::vector<CompletionItem> items = [] {
    std::vector<CompletionItem> out;
    for (const OpcodeInfo& info : allOpcodes()) {
      out.push_back(makeItem(info.name, CompletionKind::Opcode, firstSentence(info.summary),
                             instructionSummary(info.name).value_or(""), concat("1", info.name)));
    }
    return out;
  }();
  return items;
}

CompletionItem directiveItem(std::string_view name, std::string_view rank) {
  const DirectiveInfo* info = findDirective(name);
  return makeItem(name, CompletionKind::Directive, info != nullptr ? firstSentence(info->summary) : "directive",
                  hoverMarkdown(name).value_or(""), concat(rank, name));
}

const std::vector<CompletionItem>& specialRegisterItems() {
  static const std::vector<CompletionItem> items = [] {
    std::vector<CompletionItem> out;
    for (const SpecialRegisterInfo& info : allSpecialRegisters()) {
      // A numbered family (`%envreg0..%envreg31`) is offered as its first member.
      std::string_view name = info.name.substr(0, info.name.find(".."));
      // The type's first word (".v4.u32" of ".v4.u32 with .x .y .z components ...").
      std::string detail(info.name.find("..") != std::string_view::npos ? info.name
                                                                         : info.type.substr(0, info.type.find(' ')));
      out.push_back(makeItem(name, CompletionKind::SpecialRegister, std::move(detail),
                             hoverMarkdown(name).value_or(""), concat("5", name)));
    }
    return out;
  }();
  return items;
}

// ── Building the answer ─────────────────────────────────────────────────────────────────

// Which declared names an operand position takes.
struct ValueFilter {
  bool registers = true;
  bool specialRegisters = false;
  bool variables = false;  // Variables, and parameters outside `.reg`.
  std::string_view expectedType;  // Registers that fit it rank first.
  OperandRelax relax = OperandRelax::Strict;
  bool onlyFitting = false;  // Leave out registers that do not fit expectedType.
};

class Completer {
 public:
  Completer(std::string_view text, const LintResult& analysis, std::uint32_t cursor)
      : text_(text), analysis_(analysis), cursor_(cursor) {}

  std::vector<CompletionItem> run();

 private:
  void add(CompletionItem item) {
    item.replace = replace_;
    items_.push_back(std::move(item));
  }
  void addAll(const std::vector<CompletionItem>& items) {
    for (const CompletionItem& item : items) add(item);
  }
  void addKeyword(std::string_view label, CompletionKind kind, std::string detail, std::string_view rank) {
    add(makeItem(label, kind, std::move(detail), hoverMarkdown(label).value_or(""),
                 concat(rank, label)));
  }

  void statementStart(bool guarded);
  void moduleStatement(std::size_t first);
  void declaration(std::size_t spaceIndex);
  void functionHeader(std::size_t keywordIndex);
  void instruction(std::size_t opcodeIndex);
  void modifiers(const InstructionFamily& family, std::span<const std::string_view> typed);
  void operands(const InstructionFamily* family, std::span<const std::string_view> typed, std::uint32_t index,
                bool inAddress);
  void callOperands(bool inParentheses);
  void components(std::string_view registerName);
  void values(const ValueFilter& filter);
  void labels();
  void functions(std::string_view rank);

  // Module-level declarations from the model (before the scan start) and from the scan.
  std::vector<Decl> visibleDecls() const;

  std::string_view text_;
  const LintResult& analysis_;
  std::uint32_t cursor_;
  std::uint32_t start_ = 0;
  std::optional<Scanner> scan_;
  ByteRange replace_;
  std::string_view word_;
  std::vector<CompletionItem> items_;
};

std::vector<CompletionItem> Completer::run() {
  const Module& module = analysis_.module;
  // Without a model, module-level names come from the text itself (but never from more
  // than 16 MiB of it: such texts are not analyzed at all).
  start_ = module.scopes.empty() && text_.size() <= (std::size_t{16} << 20) ? 0 : scanStart(text_, cursor_);
  scan_.emplace(text_, start_, cursor_);
  Scanner& scan = *scan_;
  scan.runToCursor();
  if (scan.inert() || scan.inSection()) return {};
  const Token& word = scan.word();
  replace_ = ByteRange{word.kind == TokenKind::End ? cursor_ : word.begin, cursor_};
  word_ = text_.substr(replace_.begin, replace_.end - replace_.begin);
  if (word.kind == TokenKind::Number || word.kind == TokenKind::String) return {};

  const std::vector<Token>& statement = scan.statement();
  std::size_t i = 0;
  bool guarded = false;
  if (!statement.empty() && scan.slice(statement[0]) == "@") {
    // `@p`, `@!p`: a predicate is being typed, or the guard is complete.
    i = 1;
    if (i < statement.size() && scan.slice(statement[i]) == "!") ++i;
    if (i == statement.size()) {
      ValueFilter predicates;
      predicates.expectedType = ".pred";
      predicates.onlyFitting = true;
      values(predicates);
      return std::move(items_);
    }
    ++i;
    guarded = true;
  }
  if (i == statement.size()) {
    statementStart(guarded);
    return std::move(items_);
  }
  const Token& first = statement[i];
  if (first.kind == TokenKind::Word) {
    instruction(i);
  } else if (first.kind == TokenKind::Dotted && !guarded) {
    moduleStatement(i);
  }
  return std::move(items_);
}

void Completer::statementStart(bool guarded) {
  bool dotted = word_.starts_with('.');
  if (word_.starts_with('%')) return;
  if (scan_->inFunction()) {
    if (!dotted) addAll(opcodeItems());
    if (guarded) return;
    for (std::string_view name : {".reg", ".local", ".shared", ".param", ".pragma", ".loc", ".callprototype",
                                  ".branchtargets", ".calltargets"}) {
      add(directiveItem(name, "2"));
    }
    return;
  }
  if (guarded) return;
  for (std::string_view name : {".version", ".target", ".address_size", ".visible", ".extern", ".weak", ".common",
                                ".entry", ".func", ".global", ".const", ".shared", ".tex", ".file", ".section",
                                ".alias", ".pragma"}) {
    add(directiveItem(name, "1"));
  }
}

void Completer::moduleStatement(std::size_t first) {
  const std::vector<Token>& statement = scan_->statement();
  // Skip linkage words; what follows decides.
  std::size_t i = first;
  while (i < statement.size() && statement[i].kind == TokenKind::Dotted && isLinkage(scan_->slice(statement[i]))) ++i;
  if (i == statement.size()) {
    if (!word_.empty() && !word_.starts_with('.')) return;
    for (std::string_view name : {".entry", ".func", ".global", ".const", ".shared", ".tex"}) {
      add(directiveItem(name, "1"));
    }
    for (std::string_view name : kLinkages) {
      bool typed = std::any_of(statement.begin(), statement.end(),
                               [&](const Token& token) { return scan_->slice(token) == name; });
      if (!typed) add(directiveItem(name, "2"));
    }
    return;
  }
  std::string_view head = scan_->slice(statement[i]);
  if (isDeclarationSpace(head)) {
    declaration(i);
  } else if (isFunctionKeyword(head)) {
    functionHeader(i);
  } else if (head == ".branchtargets") {
    scan_->collectLaterLabels();
    labels();
  } else if (head == ".calltargets") {
    functions("1");
  }
}

// After `.reg`, `.global .align 4`, ...: types, vector widths and alignment until a type
// is given; the name comes after that.
void Completer::declaration(std::size_t spaceIndex) {
  if (!word_.empty() && !word_.starts_with('.')) return;
  const std::vector<Token>& statement = scan_->statement();
  std::string_view space = scan_->slice(statement[spaceIndex]);
  bool hasType = false;
  bool hasVector = false;
  bool hasAlign = false;
  for (std::size_t j = spaceIndex + 1; j < statement.size(); ++j) {
    std::string_view spelled = scan_->slice(statement[j]);
    if (statement[j].kind == TokenKind::Word) return;  // Past the type, at the names.
    hasType = hasType || (statement[j].kind == TokenKind::Dotted && findType(spelled) != nullptr);
    hasVector = hasVector || isVectorWidth(spelled);
    hasAlign = hasAlign || spelled == ".align";
  }
  if (hasType) {
    if (space == ".param") add(makeItem(".ptr", CompletionKind::Keyword, "pointer attributes",
                                        hoverMarkdown(".ptr").value_or(""), "1.ptr"));
    return;
  }
  for (const TypeInfo& type : allTypes()) {
    add(makeItem(type.name, CompletionKind::Type, type.sizeBits != 0 ? concat(std::to_string(type.sizeBits), " bits") : "type",
                 hoverMarkdown(type.name).value_or(""), concat("1", type.name)));
  }
  if (!hasVector) {
    for (std::string_view width : {".v2", ".v4", ".v8"}) {
      add(makeItem(width, CompletionKind::Keyword, "vector", std::string(modifierSummary("", width)),
                   concat("2", width)));
    }
  }
  if (!hasAlign && space != ".reg") addKeyword(".align", CompletionKind::Keyword, "alignment in bytes", "3");
}

// `.entry name(.param .u64 p, ...)` and what may follow the parameter list.
void Completer::functionHeader(std::size_t keywordIndex) {
  if (!word_.empty() && !word_.starts_with('.')) return;
  const std::vector<Token>& statement = scan_->statement();
  bool isEntry = scan_->slice(statement[keywordIndex]) == ".entry";
  int depth = 0;
  std::size_t parameterStart = 0;
  bool named = false;
  for (std::size_t j = keywordIndex + 1; j < statement.size(); ++j) {
    std::string_view spelled = scan_->slice(statement[j]);
    if (spelled == "(" && ++depth == 1) parameterStart = j + 1;
    if (spelled == ")") depth = std::max(depth - 1, 0);
    if (spelled == "," && depth == 1) parameterStart = j + 1;
    if (statement[j].kind == TokenKind::Word && depth == 0) named = true;
  }
  if (depth > 0) {
    // In a parameter: its state space first, then as in a declaration.
    for (std::size_t j = parameterStart; j < statement.size(); ++j) {
      std::string_view spelled = scan_->slice(statement[j]);
      if (spelled == ".param" || spelled == ".reg") {
        declaration(j);
        return;
      }
    }
    addKeyword(".param", CompletionKind::Directive, "parameter", "1");
    if (!isEntry) addKeyword(".reg", CompletionKind::Directive, "register parameter", "2");
    return;
  }
  if (!named) return;
  for (std::string_view name : {".maxntid", ".reqntid", ".minnctapersm", ".maxnctapersm", ".maxnreg", ".noreturn",
                                ".reqnctapercluster", ".explicitcluster", ".maxclusterrank", ".blocksareclusters",
                                ".pragma"}) {
    add(directiveItem(name, "1"));
  }
}

void Completer::instruction(std::size_t opcodeIndex) {
  const std::vector<Token>& statement = scan_->statement();
  const Token& opcode = statement[opcodeIndex];
  std::string_view name = scan_->slice(opcode);
  // The modifiers are the dotted words glued to the opcode.
  std::vector<std::string_view> typed;
  std::size_t j = opcodeIndex + 1;
  std::uint32_t chainEnd = opcode.end;
  for (; j < statement.size() && statement[j].kind == TokenKind::Dotted && statement[j].begin == chainEnd; ++j) {
    typed.push_back(scan_->slice(statement[j]));
    chainEnd = statement[j].end;
  }
  const InstructionFamily* family = findInstructionFamily(name);
  bool wordGlued = replace_.begin == chainEnd && scan_->word().kind != TokenKind::End;
  if (j == statement.size() && wordGlued) {
    if (word_.starts_with('.') && family != nullptr) modifiers(*family, typed);
    return;
  }
  // `%tid.` — a component of the special register just before.
  if (word_.starts_with('.') && j < statement.size() && statement.back().end == replace_.begin &&
      statement.back().kind == TokenKind::Word) {
    components(scan_->slice(statement.back()));
    return;
  }
  if (word_.starts_with('.')) return;
  // The operand index counts top-level commas; brackets, braces and parentheses nest.
  std::uint32_t index = 0;
  int depth = 0;
  int brackets = 0;
  bool inParentheses = false;
  for (std::size_t k = j; k < statement.size(); ++k) {
    if (statement[k].kind != TokenKind::Punct) continue;
    char c = text_[statement[k].begin];
    if (c == '[' || c == '{' || c == '(') ++depth;
    if (c == ']' || c == '}' || c == ')') depth = std::max(depth - 1, 0);
    if (c == '[') ++brackets;
    if (c == ']') brackets = std::max(brackets - 1, 0);
    if (c == '(') inParentheses = true;
    if (c == ')') inParentheses = false;
    if (c == ',' && depth == 0) ++index;
  }
  if (name == "call") {
    callOperands(inParentheses);
    return;
  }
  operands(family, typed, index, brackets > 0);
}

void Completer::modifiers(const InstructionFamily& family, std::span<const std::string_view> typed) {
  struct Candidate {
    std::string_view value;
    const FormElement* element = nullptr;
    std::uint32_t score = 0;
  };
  std::vector<Candidate> candidates;
  for (const PartialFormMatch& match : matchFormsPartially(family, typed)) {
    const std::vector<FormElement>& elements = match.form->elements;
    std::size_t lastFilled = 0;
    bool anyFilled = false;
    for (std::size_t e = 0; e < elements.size(); ++e) {
      if (match.filled[e]) {
        lastFilled = e;
        anyFilled = true;
      }
    }
    for (std::size_t e = 0; e < elements.size(); ++e) {
      if (match.filled[e]) continue;
      // Template order first: elements after the last typed one, nearest first.
      bool ahead = !anyFilled || e > lastFilled;
      std::uint32_t distance = static_cast<std::uint32_t>(ahead ? e - (anyFilled ? lastFilled + 1 : 0) : 100 + e);
      for (std::size_t v = 0; v < elements[e].values.size(); ++v) {
        std::string_view value = elements[e].values[v];
        if (std::find(typed.begin(), typed.end(), value) != typed.end()) continue;
        std::uint32_t score = distance * 1000 + static_cast<std::uint32_t>(std::min<std::size_t>(v, 999));
        auto known = std::find_if(candidates.begin(), candidates.end(),
                                  [&](const Candidate& candidate) { return candidate.value == value; });
        if (known == candidates.end()) {
          candidates.push_back(Candidate{value, &elements[e], score});
        } else if (score < known->score) {
          known->score = score;
          known->element = &elements[e];
        }
      }
    }
  }
  for (const Candidate& candidate : candidates) {
    const FormElement& element = *candidate.element;
    CompletionItem item;
    item.label = std::string(candidate.value);
    item.insertText = item.label;
    char rank[16];
    std::snprintf(rank, sizeof rank, "%06u", candidate.score);
    item.sortText = rank;
    bool group = element.values.size() > 1 || element.spelling != candidate.value;
    std::string_view space = candidate.value.substr(0, candidate.value.find("::"));
    if (const TypeInfo* type = findType(candidate.value)) {
      item.kind = CompletionKind::Type;
      item.detail = group ? concat("type ", element.spelling) : "type";
      if (type->sizeBits != 0) item.detail += concat(", ", std::to_string(type->sizeBits), " bits");
      item.documentation = hoverMarkdown(candidate.value).value_or("");
    } else if (const StateSpaceInfo* info = findStateSpace(space)) {
      item.kind = CompletionKind::Modifier;
      item.detail = group ? concat("state space ", element.spelling) : "state space";
      item.documentation = stateSpaceMarkdown(*info, candidate.value);
    } else {
      item.kind = CompletionKind::Modifier;
      item.detail = group ? concat("modifier ", element.spelling) : "modifier";
      std::string_view summary = modifierSummary(family.name, candidate.value);
      if (!summary.empty()) {
        item.documentation = concat("**", item.label, "** — ", item.detail, "\n\n", summary, "\n");
      }
    }
    add(std::move(item));
  }
}

void Completer::operands(const InstructionFamily* family, std::span<const std::string_view> typed,
                         std::uint32_t index, bool inAddress) {
  if (inAddress) {
    ValueFilter addressable;
    addressable.variables = true;
    values(addressable);
    return;
  }
  std::uint16_t kinds = family == nullptr ? std::uint16_t{0xFFFF} : std::uint16_t{0};
  std::string_view expectedType;
  OperandRelax relax = OperandRelax::Strict;
  if (family != nullptr) {
    std::vector<PartialFormMatch> matches = matchFormsPartially(*family, typed);
    for (const PartialFormMatch& match : matches) {
      if (index < match.form->operands.size()) kinds |= match.form->operands[index].kinds;
    }
    // A modifier no form takes (a typo) says nothing about the operands: take every form.
    if (matches.empty()) {
      for (const InstructionForm& form : family->forms) {
        if (index < form.operands.size()) kinds |= form.operands[index].kinds;
      }
    }
    // With a complete spelling, the first form's type for this operand ranks the registers.
    std::vector<FormMatch> complete = matchForms(*family, typed);
    if (!complete.empty() && index < complete.front().form->operands.size()) {
      const OperandSpec& spec = complete.front().form->operands[index];
      relax = spec.relax;
      if (spec.typeRule == OperandTypeRule::Element && spec.typeIndex < complete.front().types.size()) {
        expectedType = complete.front().types[spec.typeIndex];
      } else if (spec.typeRule == OperandTypeRule::Fixed) {
        expectedType = spec.fixedType;
      }
    }
  }
  if (kinds == 0) return;  // The instruction takes no more operands.
  if ((kinds & kOperandLabel) != 0) {
    scan_->collectLaterLabels();
    labels();
  }
  constexpr std::uint16_t kPredicates = kOperandPredicate | kOperandNegatedPredicate | kOperandPredicatePair;
  constexpr std::uint16_t kValues =
      kOperandRegister | kOperandValuePredicatePair | kOperandVector | kOperandAny | kPredicates;
  bool predicatesOnly = (kinds & kValues & ~kPredicates) == 0 && (kinds & kPredicates) != 0;
  ValueFilter filter;
  filter.registers = (kinds & kValues) != 0;
  filter.specialRegisters = (kinds & (kOperandRegister | kOperandAny)) != 0;
  filter.variables = (kinds & (kOperandSymbol | kOperandAny)) != 0;
  filter.expectedType = predicatesOnly ? ".pred" : expectedType;
  filter.relax = relax;
  filter.onlyFitting = predicatesOnly;
  if (filter.registers || filter.variables) values(filter);
}

void Completer::callOperands(bool inParentheses) {
  if (inParentheses) {
    ValueFilter addressable;
    addressable.variables = true;
    values(addressable);
    return;
  }
  functions("0");
  values(ValueFilter{});
}

void Completer::components(std::string_view registerName) {
  const SpecialRegisterInfo* info = findSpecialRegister(registerName);
  if (info == nullptr || info->type.find(".x") == std::string_view::npos) return;
  for (std::string_view component : {".x", ".y", ".z"}) {
    add(makeItem(component, CompletionKind::SpecialRegister, concat(registerName, component),
                 hoverMarkdown(registerName).value_or(""), concat("0", component)));
  }
}

std::vector<Decl> Completer::visibleDecls() const {
  std::vector<Decl> out;
  const Module& module = analysis_.module;
  if (start_ != 0 && !module.scopes.empty()) {
    for (SymbolId id : module.scopes[0].symbols) {
      if (id >= module.symbols.size()) continue;
      const Symbol& symbol = module.symbols[id];
      if (symbol.nameRange.begin >= start_) continue;  // The scan has seen it.
      Decl decl;
      decl.name = symbol.name;
      decl.space = symbol.space;
      decl.type = symbol.type;
      decl.vectorWidth = symbol.vectorWidth;
      decl.rangeCount = symbol.rangeCount;
      decl.isEntry = symbol.isEntry;
      if (symbol.kind == SymbolKind::Function) {
        decl.kind = CompletionKind::Function;
      } else if (symbol.kind == SymbolKind::Variable) {
        decl.kind = CompletionKind::Variable;
      } else {
        continue;
      }
      out.push_back(decl);
    }
  }
  out.insert(out.end(), scan_->decls().begin(), scan_->decls().end());
  return out;
}

// Registers (a `%r<N>` range as its prefix), parameters and variables in scope, innermost
// first when names repeat; registers that fit `expectedType` rank first.
void Completer::values(const ValueFilter& filter) {
  std::vector<Decl> decls = visibleDecls();
  std::unordered_set<std::string_view> seen;
  for (auto it = decls.rbegin(); it != decls.rend(); ++it) {
    const Decl& decl = *it;
    bool isRegister = decl.kind == CompletionKind::Register || (decl.kind == CompletionKind::Parameter && decl.space == ".reg");
    if (decl.kind == CompletionKind::Function || decl.kind == CompletionKind::Label) continue;
    if (isRegister ? !filter.registers : !filter.variables) continue;
    bool fits = registerTypeFits(filter.expectedType, decl.type, filter.relax);
    if (isRegister && filter.onlyFitting && !fits) continue;
    if (!seen.insert(decl.name).second) continue;
    CompletionItem item;
    item.label = std::string(decl.name);
    item.insertText = item.label;
    item.kind = isRegister ? CompletionKind::Register : decl.kind;
    std::string detail = typeDetail(decl);
    if (decl.rangeCount != 0) {
      detail += ' ';
      detail += decl.name;
      detail += '<';
      detail += std::to_string(decl.rangeCount);
      detail += '>';
    }
    item.detail = isRegister && decl.kind != CompletionKind::Parameter ? detail
                                                                         : concat(decl.space, " ", detail);
    if (isRegister) {
      item.sortText = concat(fits ? "1" : "3", item.label);
    } else {
      item.sortText = concat(decl.kind == CompletionKind::Parameter ? "2" : "4", item.label);
    }
    add(std::move(item));
  }
  if (filter.specialRegisters) addAll(specialRegisterItems());
}

void Completer::labels() {
  std::unordered_set<std::string_view> seen;
  for (const Decl& label : scan_->labels()) {
    if (!seen.insert(label.name).second) continue;
    add(makeItem(label.name, CompletionKind::Label, "label", "", concat("0", label.name)));
  }
}

void Completer::functions(std::string_view rank) {
  std::unordered_set<std::string_view> seen;
  for (const Decl& decl : visibleDecls()) {
    if (decl.kind != CompletionKind::Function || !seen.insert(decl.name).second) continue;
    add(makeItem(decl.name, CompletionKind::Function, decl.isEntry ? ".entry" : ".func", "",
                 concat(rank, decl.name)));
  }
}

}  // namespace

std::vector<CompletionItem> completeAt(std::string_view text, const LintResult& analysis, std::uint32_t offset) {
  if (text.size() >= UINT32_MAX) return {};
  return Completer(text, analysis, clampOffset(text, offset)).run();
}

std::optional<InstructionAtCursor> instructionAtCursor(std::string_view text, std::uint32_t offset) {
  if (text.size() >= UINT32_MAX) return std::nullopt;
  std::uint32_t cursor = clampOffset(text, offset);
  Scanner scan(text, scanStart(text, cursor), cursor);
  scan.runToCursor();
  if (scan.inert()) return std::nullopt;
  const std::vector<Token>& statement = scan.statement();
  std::size_t i = 0;
  if (!statement.empty() && scan.slice(statement[0]) == "@") {
    i = 1;
    if (i < statement.size() && scan.slice(statement[i]) == "!") ++i;
    ++i;  // The predicate.
  }
  if (i >= statement.size() || statement[i].kind != TokenKind::Word) return std::nullopt;
  InstructionAtCursor out;
  out.opcode = scan.slice(statement[i]);
  out.opcodeRange = ByteRange{statement[i].begin, statement[i].end};
  std::uint32_t chainEnd = statement[i].end;
  std::size_t j = i + 1;
  for (; j < statement.size() && statement[j].kind == TokenKind::Dotted && statement[j].begin == chainEnd; ++j) {
    out.modifiers.push_back(scan.slice(statement[j]));
    chainEnd = statement[j].end;
  }
  const Token& word = scan.word();
  // Still in the spelling (`add.s3|`): no operands yet.
  if (j == statement.size() && word.kind != TokenKind::End && word.begin == chainEnd) return out;
  if (j == statement.size() && cursor == chainEnd) return out;
  out.inOperands = true;
  int depth = 0;
  int brackets = 0;
  for (std::size_t k = j; k < statement.size(); ++k) {
    if (statement[k].kind != TokenKind::Punct) continue;
    char c = text[statement[k].begin];
    if (c == '[' || c == '{' || c == '(') ++depth;
    if (c == ']' || c == '}' || c == ')') depth = std::max(depth - 1, 0);
    if (c == '[') ++brackets;
    if (c == ']') brackets = std::max(brackets - 1, 0);
    if (c == ',' && depth == 0) ++out.operandIndex;
  }
  out.inAddress = brackets > 0;
  return out;
}

}  // namespace ptx::lsp

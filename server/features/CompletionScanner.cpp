// CompletionScanner: the statement, block and declaration state of the text up to the
// cursor, and the labels of the enclosing function after it.
#include "features/CompletionScanner.h"

#include <algorithm>
#include <charconv>

#include "isa/IsaReference.h"

namespace ptx::lsp::completion {

bool isLinkage(Modifier word) {
  return word == Modifier::Visible || word == Modifier::Extern || word == Modifier::Weak || word == Modifier::Common;
}

bool isFunctionKeyword(Modifier word) { return word == Modifier::Entry || word == Modifier::Func; }

bool isVectorWidth(Modifier word) { return infoOf(word).vectorWidth != 0; }

namespace {

// Directives whose statement ends at the end of the line, without `;`.
bool endsAtNewline(Modifier word) {
  return word == Modifier::Version || word == Modifier::Target || word == Modifier::AddressSize ||
         word == Modifier::File || word == Modifier::Loc;
}

// Whether `text[at, at + length)` is a whole dotted word.
bool isWholeWord(std::string_view text, std::size_t at, std::size_t length) {
  bool startOk = at == 0 || !(isIdentifierChar(text[at - 1]) || text[at - 1] == '.' || text[at - 1] == ':');
  bool endOk = at + length >= text.size() || !isIdentifierChar(text[at + length]);
  return startOk && endOk;
}

}  // namespace

bool isDeclarationSpace(Modifier word) {
  switch (word) {
    case Modifier::Reg:
    case Modifier::Sreg:
    case Modifier::Const:
    case Modifier::Global:
    case Modifier::Local:
    case Modifier::Param:
    case Modifier::Shared:
    case Modifier::Tex:
      return true;
    default:
      return false;
  }
}

void Scanner::runToCursor() {
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
        if (typed.kind == TokenKind::Dotted) typed.modifier = modifierNamed(slice(typed));  // `.fu|nc` is `.fu`.
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
void Scanner::collectLaterLabels() {
  if (functionDepth_ == 0 || inert_) return;
  afterCursor_ = true;
  // The token the cursor stopped at is still to be handled, unless it was the word typed.
  Token token = pending_.kind == TokenKind::End ? lexer_.next() : pending_;
  while (token.kind != TokenKind::End && !stopped_) {
    if (token.kind != TokenKind::Comment) handle(token);
    token = lexer_.next();
  }
}

// The first token after linkage words, or nullptr.
const Token* Scanner::head() const {
  for (const Token& token : statement_) {
    if (!(token.kind == TokenKind::Dotted && isLinkage(token.modifier))) return &token;
  }
  return nullptr;
}

bool Scanner::isFunctionHeader() const {
  const Token* first = head();
  return first != nullptr && first->kind == TokenKind::Dotted && isFunctionKeyword(first->modifier);
}

// A missing `;` is common while typing. When a line starts with what can only begin a
// statement and the line before ended without a continuation (`,`, an open bracket, an
// operator), the statement before is taken as ended.
void Scanner::maybeRestart(const Token& token) {
  if (!token.lineStart || statement_.empty()) return;
  const Token& first = statement_.front();
  if (first.kind == TokenKind::Dotted && endsAtNewline(first.modifier)) {
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
    Modifier word = token.modifier;
    restarts = !header || isLinkage(word) || isFunctionKeyword(word) || isDeclarationSpace(word);
  } else if (token.kind == TokenKind::Word) {
    restarts = !header && text_[token.begin] != '%';
  } else if (isPunct(token, '@')) {
    restarts = !header;
  }
  if (restarts) endStatement();
}

void Scanner::handle(const Token& token) {
  if (afterCursor_ && statement_.empty() && token.kind == TokenKind::Dotted &&
      (isFunctionKeyword(token.modifier) || isLinkage(token.modifier))) {
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
        if (head() != nullptr && head()->modifier == Modifier::Section) {
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

void Scanner::endStatement() {
  if (!afterCursor_) processStatement();
  statement_.clear();
  paren_ = bracket_ = brace_ = 0;
}

void Scanner::openBlock(BlockKind kind) {
  blocks_.push_back(Block{kind, decls_.size(), labels_.size()});
  if (kind == BlockKind::Function) functionDepth_ = blocks_.size();
}

void Scanner::closeBlock() {
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

void Scanner::addLabel(const Token& name) {
  if (functionDepth_ == 0) return;  // Labels of debug sections are no branch targets.
  if (afterCursor_ && blocks_.size() > minDepth_) return;  // Inside a block the cursor is not in.
  Decl label;
  label.name = slice(name);
  label.kind = CompletionKind::Label;
  labels_.push_back(label);
}

void Scanner::openFunctionBody() {
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
std::vector<Decl> Scanner::readSignature() {
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
      function.isEntry = first->modifier == Modifier::Entry;
      decls_.push_back(function);
    }
  }
  return parameters;
}

void Scanner::readParameter(std::size_t begin, std::size_t end, std::vector<Decl>& out) const {
  Decl parameter;
  parameter.kind = CompletionKind::Parameter;
  for (std::size_t j = begin; j < end; ++j) {
    const Token& token = statement_[j];
    std::string_view word = slice(token);
    if (token.kind == TokenKind::Dotted) {
      if (parameter.space.empty() && (token.modifier == Modifier::Param || token.modifier == Modifier::Reg)) {
        parameter.space = word;
        parameter.spaceId = token.modifier;
      }
      if (parameter.type.empty() && findType(word) != nullptr) parameter.type = word;
      if (isVectorWidth(token.modifier)) parameter.vectorWidth = infoOf(token.modifier).vectorWidth;
    } else if (token.kind == TokenKind::Word && parameter.name.empty()) {
      parameter.name = word;
    }
  }
  if (!parameter.name.empty() && parameter.name != "_") out.push_back(parameter);
}

void Scanner::processStatement() {
  const Token* first = head();
  if (first == nullptr || first->kind != TokenKind::Dotted) return;
  if (isDeclarationSpace(first->modifier)) {
    readDeclaration(static_cast<std::size_t>(first - statement_.data()));
  } else if (isFunctionKeyword(first->modifier)) {
    readSignature();  // A prototype: its name only.
  }
}

// `.reg .b32 %r<10>, %x;`, `.shared .align 8 .b8 buf[64];`, `.global .u32 g = 1;`.
void Scanner::readDeclaration(std::size_t spaceIndex) {
  Decl model;
  model.space = slice(statement_[spaceIndex]);
  model.spaceId = statement_[spaceIndex].modifier;
  model.kind = model.spaceId == Modifier::Reg ? CompletionKind::Register : CompletionKind::Variable;
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
    if (token.kind == TokenKind::Dotted && isVectorWidth(token.modifier)) {
      model.vectorWidth = infoOf(token.modifier).vectorWidth;
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

}  // namespace ptx::lsp::completion

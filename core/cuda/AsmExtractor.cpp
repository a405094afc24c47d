// AsmExtractor: rebuilds asm statements from tokens for one device pass.
#include "cuda/AsmExtractor.h"

#include <algorithm>
#include <cctype>

namespace ptx::cuda {

std::string_view registerTypeOf(ConstraintKind kind) {
  switch (kind) {
    case ConstraintKind::B16: return ".b16";
    case ConstraintKind::B32: return ".b32";
    case ConstraintKind::B64: return ".b64";
    case ConstraintKind::B128: return ".b128";
    case ConstraintKind::F32: return ".f32";
    case ConstraintKind::F64: return ".f64";
    default: return {};
  }
}

unsigned registerBitsOf(ConstraintKind kind) {
  switch (kind) {
    case ConstraintKind::B16: return 16;
    case ConstraintKind::B32: case ConstraintKind::F32: return 32;
    case ConstraintKind::B64: case ConstraintKind::F64: return 64;
    case ConstraintKind::B128: return 128;
    default: return 0;
  }
}

ByteRange AsmStatement::sourceOfTemplate(std::uint32_t begin, std::uint32_t end) const {
  if (templateSource.empty()) return templateRange;
  begin = std::min<std::uint32_t>(begin, static_cast<std::uint32_t>(templateSource.size() - 1));
  end = std::clamp<std::uint32_t>(end, begin + 1, static_cast<std::uint32_t>(templateSource.size()));
  std::uint32_t from = templateSource[begin];
  std::uint32_t to = templateSource[end - 1] + templateSourceWidth[end - 1];
  if (to < from) to = from;  // Bytes from a macro body defined before the use.
  return {from, to};
}

bool isAsmKeyword(std::string_view spelling) { return spelling == "asm" || spelling == "__asm__" || spelling == "__asm"; }

namespace {

constexpr int kMaxMacroDepth = 16;

// Walks the tokens one statement is made of: outside a `#define`, directive lines and tokens
// the pass does not compile are skipped; inside one, the walk stays within its body.
class StatementCursor {
 public:
  StatementCursor(const LexedSource& source, const PassView& pass, std::uint32_t start, std::uint32_t limit, bool inDirective,
                  Truth activity)
      : source_(source), pass_(pass), index_(start), limit_(limit), inDirective_(inDirective), activity_(activity) {
    skip();
  }

  bool done() const { return index_ >= limit_; }
  // Whether the walk stepped over a directive line, and whether it took a token whose activity
  // differs from `activity` (a branch of an undecidable #if inside the statement).
  bool crossedDirective() const { return crossedDirective_; }
  bool mixedActivity() const { return mixedActivity_; }
  std::uint32_t index() const { return index_; }
  const Token& token() const { return source_.tokens()[index_]; }
  bool is(std::string_view spelling) const { return !done() && source_.is(token(), spelling); }
  void advance() {
    ++index_;
    skip();
  }

 private:
  void skip() {
    if (inDirective_) return;
    const auto& tokens = source_.tokens();
    while (index_ < limit_ && (tokens[index_].directive != kNoDirective || pass_.activity(index_) == Truth::False)) {
      crossedDirective_ = crossedDirective_ || tokens[index_].directive != kNoDirective;
      ++index_;
    }
    if (index_ < limit_ && pass_.activity(index_) != activity_) mixedActivity_ = true;
  }

  const LexedSource& source_;
  const PassView& pass_;
  std::uint32_t index_;
  std::uint32_t limit_;
  bool inDirective_;
  Truth activity_;
  bool crossedDirective_ = false;
  bool mixedActivity_ = false;
};

class StatementParser {
 public:
  StatementParser(const LexedSource& source, const PassView& pass) : source_(source), pass_(pass) {}

  std::optional<AsmStatement> parse(std::uint32_t keyword) {
    const auto& tokens = source_.tokens();
    const Token& first = tokens[keyword];
    macroParameters_.clear();
    std::uint32_t limit = static_cast<std::uint32_t>(tokens.size());
    bool inDirective = first.directive != kNoDirective;
    AsmStatement statement;
    if (inDirective) {
      const Directive& directive = source_.directives()[first.directive];
      if (directive.firstToken + 2 >= directive.endToken || !source_.is(tokens[directive.firstToken + 1], "define")) return std::nullopt;
      limit = directive.endToken;
      statement.macroName = source_.spelling(tokens[directive.firstToken + 2]);
      if (const MacroDefinition* macro = pass_.macroAt(*statement.macroName, directive.firstToken + 1))
        macroParameters_ = macro->parameters;
    }
    statement.keyword = first.range;
    statement.activity = pass_.activity(keyword);
    StatementCursor cursor(source_, pass_, keyword + 1, limit, inDirective, statement.activity);
    while (!cursor.done() && cursor.token().kind == TokenKind::Identifier) {
      std::string spelling = source_.spelling(cursor.token());
      if (spelling == "volatile" || spelling == "__volatile__" || spelling == "__volatile") statement.isVolatile = true;
      else if (spelling != "inline" && spelling != "goto" && spelling != "__inline__") return std::nullopt;
      cursor.advance();
    }
    if (!cursor.is("(")) return std::nullopt;
    std::uint32_t open = cursor.index();
    cursor.advance();

    readTemplate(cursor, statement);
    int section = 0;
    while (!cursor.done() && !cursor.is(")")) {
      if (cursor.is(":") || cursor.is("::")) {
        section += cursor.is("::") ? 2 : 1;
        cursor.advance();
        continue;
      }
      if (section == 1 || section == 2) {
        if (!readOperand(cursor, statement, section == 1)) break;
      } else if (section == 3) {
        if (cursor.token().kind == TokenKind::String) {
          DecodedString name = decodeStringLiteral(source_, cursor.token());
          statement.clobbers.push_back({name.bytes, cursor.token().range});
          if (name.bytes == "memory") statement.memoryClobber = true;
        }
        cursor.advance();
      } else if (section >= 4) {
        cursor.advance();  // asm goto labels.
      } else {
        // Something other than a literal in the template position.
        if (!statement.opaqueReason) markOpaque(statement, cursor.token().range, "the template is not a string literal");
        if (!skipBalanced(cursor)) break;
      }
    }
    // Both branches of an #if we cannot decide were taken: the statement is neither of them.
    if (cursor.crossedDirective() && cursor.mixedActivity() && !statement.opaqueReason)
      markOpaque(statement, tokens[open].range, "#if conditions inside the statement cannot be decided here");
    if (!cursor.is(")")) {
      if (!statement.opaqueReason)
        markOpaque(statement, tokens[open].range, "the statement's parentheses are not closed");
      statement.range = {first.range.begin, tokens[std::min<std::size_t>(cursor.index(), tokens.size()) - 1].range.end};
      return statement;
    }
    statement.range = {first.range.begin, cursor.token().range.end};
    return statement;
  }

 private:
  void markOpaque(AsmStatement& statement, ByteRange range, std::string reason) {
    statement.opaqueReason = std::move(reason);
    statement.opaqueRange = range;
  }

  // Skips one token, or a parenthesized group; false at a ';' (the statement is broken).
  bool skipBalanced(StatementCursor& cursor) {
    int depth = 0;
    do {
      if (cursor.is(";") && depth == 0) return false;
      if (cursor.is("(")) ++depth;
      if (cursor.is(")")) --depth;
      if (depth < 0) return true;
      cursor.advance();
    } while (!cursor.done() && depth > 0);
    return !cursor.done();
  }

  // Appends a string literal token's bytes to `out`.
  bool appendLiteral(const Token& token, std::string& text, std::vector<std::uint32_t>& begins,
                     std::vector<std::uint8_t>& widths, AsmStatement& statement) {
    if (token.unterminated) {
      markOpaque(statement, token.range, "a string literal is not terminated");
      return false;
    }
    DecodedString decoded = decodeStringLiteral(source_, token);
    text += decoded.bytes;
    begins.insert(begins.end(), decoded.sourceBegin.begin(), decoded.sourceBegin.end());
    widths.insert(widths.end(), decoded.sourceWidth.begin(), decoded.sourceWidth.end());
    return true;
  }

  // A string made of adjacent literals and object-like macros (the template or a constraint).
  // Returns false (statement marked opaque) when a piece cannot be resolved.
  bool appendPiece(const Token& token, std::uint32_t at, std::string& text, std::vector<std::uint32_t>& begins,
                   std::vector<std::uint8_t>& widths, AsmStatement& statement, int depth) {
    if (token.kind == TokenKind::String) return appendLiteral(token, text, begins, widths, statement);
    std::string name = source_.spelling(token);
    if (std::find(macroParameters_.begin(), macroParameters_.end(), name) != macroParameters_.end()) {
      markOpaque(statement, token.range, "the template uses the macro parameter '" + name + "'");
      return false;
    }
    const MacroDefinition* macro = pass_.macroAt(name, at);
    if (!macro || macro->functionLike || depth >= kMaxMacroDepth) {
      markOpaque(statement, token.range, "'" + name + "' is not an object-like macro defined in this file");
      return false;
    }
    if (macro->defined != Truth::True) {
      markOpaque(statement, token.range, "'" + name + "' is defined under #if conditions that cannot be decided here");
      return false;
    }
    const auto& tokens = source_.tokens();
    for (std::uint32_t i = macro->bodyBegin; i < macro->bodyEnd; ++i) {
      const Token& piece = tokens[i];
      if (piece.kind != TokenKind::String && piece.kind != TokenKind::Identifier) {
        markOpaque(statement, token.range, "the macro '" + name + "' is not a string");
        return false;
      }
      if (!appendPiece(piece, at, text, begins, widths, statement, depth + 1)) return false;
    }
    return true;
  }

  void readTemplate(StatementCursor& cursor, AsmStatement& statement) {
    std::uint32_t begin = cursor.done() ? 0 : cursor.token().range.begin;
    std::uint32_t end = begin;
    while (!cursor.done() && !cursor.is(":") && !cursor.is("::") && !cursor.is(")")) {
      const Token& token = cursor.token();
      if (source_.is(token, "#")) {
        markOpaque(statement, token.range, "the template is built by stringizing a macro argument");
        cursor.advance();
        continue;
      }
      if (token.kind != TokenKind::String && token.kind != TokenKind::Identifier) {
        if (!statement.opaqueReason) markOpaque(statement, token.range, "the template is not a string literal");
        if (!skipBalanced(cursor)) return;
        continue;
      }
      if (!statement.opaqueReason)
        appendPiece(token, cursor.index(), statement.templateText, statement.templateSource, statement.templateSourceWidth,
                    statement, 0);
      end = token.range.end;
      cursor.advance();
    }
    statement.templateRange = {begin, end};
  }

  bool readOperand(StatementCursor& cursor, AsmStatement& statement, bool output) {
    if (cursor.is(",")) {
      cursor.advance();
      return true;
    }
    if (cursor.is("[")) {  // A symbolic name `[x] "r"(v)`: skip it; references are checked in the template.
      while (!cursor.done() && !cursor.is("]")) cursor.advance();
      if (!cursor.done()) cursor.advance();
    }
    AsmOperand operand;
    operand.isOutput = output;
    std::vector<std::uint32_t> begins;
    std::vector<std::uint8_t> widths;
    std::uint32_t constraintBegin = cursor.done() ? 0 : cursor.token().range.begin;
    std::uint32_t constraintEnd = constraintBegin;
    while (!cursor.done() && (cursor.token().kind == TokenKind::String || cursor.token().kind == TokenKind::Identifier ||
                              cursor.is("#"))) {
      if (cursor.is("#")) {
        markOpaque(statement, cursor.token().range, "a constraint is built by stringizing a macro argument");
        cursor.advance();
        if (!cursor.done()) cursor.advance();
        continue;
      }
      if (!statement.opaqueReason || operand.constraintText.empty())
        appendPiece(cursor.token(), cursor.index(), operand.constraintText, begins, widths, statement, 0);
      constraintEnd = cursor.token().range.end;
      cursor.advance();
    }
    operand.constraint = {constraintBegin, constraintEnd};
    if (!cursor.is("(")) {
      // Not an operand; skip one token so the caller makes progress.
      if (!cursor.done() && !cursor.is(")") && !cursor.is(":") && !cursor.is("::")) {
        if (cursor.is(";")) return false;
        cursor.advance();
      }
      return true;
    }
    std::uint32_t openIndex = cursor.index();
    int depth = 0;
    std::uint32_t exprBegin = 0, exprEnd = 0;
    std::string expression;
    std::vector<std::uint32_t> exprTokens;
    do {
      if (cursor.is("(")) ++depth;
      if (cursor.is(")")) --depth;
      if (cursor.is(";")) return false;
      if (depth >= 1 && !(depth == 1 && cursor.index() == openIndex)) {
        if (exprTokens.empty()) exprBegin = cursor.token().range.begin;
        exprEnd = cursor.token().range.end;
        exprTokens.push_back(cursor.index());
        if (!exprTokens.empty() && exprTokens.size() > 1 &&
            source_.tokens()[exprTokens[exprTokens.size() - 2]].range.end < cursor.token().range.begin)
          expression.push_back(' ');
        expression += source_.spelling(cursor.token());
      }
      if (depth == 0) break;
      cursor.advance();
    } while (!cursor.done());
    if (cursor.done()) return false;
    cursor.advance();  // ')'
    operand.expression = {exprBegin, exprEnd};
    operand.expressionText = std::move(expression);

    // The letter: skip the '=', '+' and '&' modifiers.
    const std::string& text = operand.constraintText;
    std::size_t k = 0;
    while (k < text.size() && (text[k] == '=' || text[k] == '+' || text[k] == '&')) {
      if (text[k] == '+') operand.readWrite = true;
      ++k;
    }
    if (k < text.size()) {
      operand.letter = text[k];
      operand.letterOffset = k < begins.size() ? begins[k] : constraintBegin;
    }
    if (k + 1 == text.size()) {
      switch (text[k]) {
        case 'h': operand.kind = ConstraintKind::B16; break;
        case 'r': operand.kind = ConstraintKind::B32; break;
        case 'l': operand.kind = ConstraintKind::B64; break;
        case 'q': operand.kind = ConstraintKind::B128; break;
        case 'f': operand.kind = ConstraintKind::F32; break;
        case 'd': operand.kind = ConstraintKind::F64; break;
        case 'n': operand.kind = ConstraintKind::Immediate; break;
        case 'C': operand.kind = ConstraintKind::Text; break;
        default: break;
      }
    }
    if (operand.kind == ConstraintKind::Immediate) operand.pastedText = literalValue(exprTokens);
    statement.operands.push_back(std::move(operand));
    return true;
  }

  // The decimal value of an integer literal expression (`16`, `0x10u`, `-1`, `(4)`), or nullopt.
  std::optional<std::string> literalValue(const std::vector<std::uint32_t>& tokenIndices) const {
    const auto& tokens = source_.tokens();
    bool negative = false;
    std::optional<std::uint64_t> value;
    for (std::uint32_t index : tokenIndices) {
      const Token& token = tokens[index];
      if (source_.is(token, "(") || source_.is(token, ")")) continue;
      if (source_.is(token, "-") && !value) {
        negative = !negative;
        continue;
      }
      if (token.kind != TokenKind::Number || value) return std::nullopt;
      value = integerLiteralValue(source_.spelling(token));
      if (!value) return std::nullopt;
    }
    if (!value) return std::nullopt;
    return (negative ? "-" : "") + std::to_string(*value);
  }

  const LexedSource& source_;
  const PassView& pass_;
  std::vector<std::string> macroParameters_;
};

}  // namespace

std::vector<AsmStatement> extractAsmStatements(const LexedSource& source, const PassView& pass) {
  std::vector<AsmStatement> statements;
  StatementParser parser(source, pass);
  const auto& tokens = source.tokens();
  std::string scratch;
  for (std::uint32_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    if (token.kind != TokenKind::Identifier || pass.activity(i) == Truth::False) continue;
    std::uint32_t length = token.range.end - token.range.begin;
    if (length != 3 && length != 5 && length != 7 && !source.hasSplice(token.range)) continue;
    if (!isAsmKeyword(source.spellingView(token, scratch))) continue;
    // A `#define asm ...` names the keyword, it does not use it.
    if (token.directive != kNoDirective && i == source.directives()[token.directive].firstToken + 2) continue;
    if (auto statement = parser.parse(i)) statements.push_back(std::move(*statement));
  }
  return statements;
}

}  // namespace ptx::cuda

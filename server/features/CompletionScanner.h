// CompletionScanner: reads the cursor's context from the text — the statement being typed,
// the enclosing blocks, and the declarations and labels in scope there — for completion and
// signature help. It walks tokens of CompletionLexer rather than the syntax tree because the
// statement under the cursor is usually incomplete (see CompletionLexer.h); the walk covers
// the enclosing function only, and module-level names come from the model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "features/Completion.h"
#include "features/CompletionLexer.h"

namespace ptx::lsp::completion {

// The dotted words that decide what a statement is.
bool isLinkage(Modifier word);           // .visible .extern .weak .common
bool isFunctionKeyword(Modifier word);   // .entry .func
bool isDeclarationSpace(Modifier word);  // .reg .sreg .const .global .local .param .shared .tex
bool isVectorWidth(Modifier word);       // .v2 .v4 .v8

// A name declared in the text (or, at module level, in the model).
struct Decl {
  std::string_view name;
  CompletionKind kind = CompletionKind::Variable;
  std::string_view space;  // As spelled.
  Modifier spaceId = Modifier::Unknown;
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

  void runToCursor();

  // Continues past the cursor to the end of the enclosing function, collecting the labels
  // visible at the cursor: those of its block and of the blocks around it.
  void collectLaterLabels();

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
  const Token* head() const;
  bool isFunctionHeader() const;

  // A missing `;` is common while typing. When a line starts with what can only begin a
  // statement and the line before ended without a continuation (`,`, an open bracket, an
  // operator), the statement before is taken as ended.
  void maybeRestart(const Token& token);
  void handle(const Token& token);
  void endStatement();
  void openBlock(BlockKind kind);
  void closeBlock();
  void addLabel(const Token& name);
  void openFunctionBody();

  // Adds the function's name to the declarations and returns its parameters (return
  // parameters included: the body may use them too).
  std::vector<Decl> readSignature();
  void readParameter(std::size_t begin, std::size_t end, std::vector<Decl>& out) const;
  void processStatement();

  // `.reg .b32 %r<10>, %x;`, `.shared .align 8 .b8 buf[64];`, `.global .u32 g = 1;`.
  void readDeclaration(std::size_t spaceIndex);

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

// Where the scan starts: the nearest `.entry` or `.func` keyword before the cursor, or the
// start of the text.
std::uint32_t scanStart(std::string_view text, std::uint32_t cursor);

// `offset` within the text and on the first byte of a character.
std::uint32_t clampOffset(std::string_view text, std::uint32_t offset);

}  // namespace ptx::lsp::completion

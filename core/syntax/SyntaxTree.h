// SyntaxTree: the tree-sitter parse of one PTX text, kept for incremental reparsing.
//
// Parsing never fails. Malformed input yields a tree with ERROR and MISSING nodes, which
// SyntaxDiagnostics turns into diagnostics. A parse stopped by its time limit or by
// cancellation yields an empty tree marked incomplete, never a null tree.
//
// Thread safety: a SyntaxTree is immutable after construction and may be read from any
// thread. Parsing functions use one tree-sitter parser per calling thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

namespace ptx {

struct ParseOptions {
  // Stop parsing after this many microseconds (0: no limit).
  std::uint64_t timeoutMicros = 0;
  // When non-null, parsing stops as soon as the flag becomes non-zero.
  const std::atomic<std::size_t>* cancellation = nullptr;
  // Chunk boundaries (grammar/src/scanner.c) make incremental reparses cheap. A tree that will
  // never be reparsed (a batch lint's) is parsed faster and is smaller without them; the
  // visible tree is the same.
  bool chunkBoundaries = true;
};

// One text change, in bytes and in (line, byte column) points of the old and new text.
struct SyntaxEdit {
  std::uint32_t startByte = 0;
  std::uint32_t oldEndByte = 0;
  std::uint32_t newEndByte = 0;
  TSPoint start{0, 0};
  TSPoint oldEnd{0, 0};
  TSPoint newEnd{0, 0};
};

// Describes replacing oldText[begin, oldEnd) with `inserted`. `start`, when given, is the
// row and byte column of `begin` (a caller with a line index knows it; counting the lines
// before `begin` reads the text up to there).
SyntaxEdit describeEdit(std::string_view oldText, std::uint32_t begin, std::uint32_t oldEnd,
                        std::string_view inserted, std::optional<TSPoint> start = std::nullopt);

class SyntaxTree {
 public:
  SyntaxTree() = default;

  // The root node; a null node for a default-constructed tree.
  TSNode root() const { return tree_ ? ts_tree_root_node(tree_.get()) : TSNode{}; }
  const TSTree* raw() const { return tree_.get(); }

  // False when parsing stopped early (time limit or cancellation) or was not attempted (a run
  // of comment lines too long for the runtime, below).
  bool isComplete() const { return tree_ != nullptr && complete_; }
  // True when the text was not parsed because of a run of more than kMaxExtrasInARow comment
  // or preprocessor lines.
  bool refusedForExtrasRun() const { return refusedForExtrasRun_; }

  // How many pieces parseSyntaxChunked parsed the text in (1 for every other parse).
  std::size_t pieces() const { return pieces_; }

  friend SyntaxTree parseSyntax(std::string_view text, const ParseOptions& options);
  friend SyntaxTree parseSyntaxChunked(std::string_view text, const ParseOptions& options, unsigned threads,
                                       std::size_t pieceBytes);
  friend SyntaxTree parseSyntaxExcluding(std::string_view text, std::span<const struct BodyInterior> excluded,
                                         const ParseOptions& options);
  friend SyntaxTree reparseSyntax(const SyntaxTree& old, std::string_view newText,
                                  std::span<const SyntaxEdit> edits, const ParseOptions& options);

 private:
  static SyntaxTree refusedForExtras();  // Empty, incomplete, refusedForExtrasRun().
  struct Deleter {
    void operator()(TSTree* tree) const { ts_tree_delete(tree); }
  };
  std::shared_ptr<TSTree> tree_;
  bool complete_ = true;
  bool refusedForExtrasRun_ = false;
  std::size_t pieces_ = 1;
};

// tree-sitter 0.20.7 corrupts its heap when it frees a tree holding more than about 65,535
// extras in a row (comments, preprocessor lines, with no other token between): 65,534 comment
// lines after a kernel abort the process in free(), 65,533 do not. Texts with a longer run than
// this are not parsed; their tree is empty and incomplete, and the syntax diagnostics say why.
inline constexpr std::size_t kMaxExtrasInARow = 60000;

// The longest run of lines that hold only comments or preprocessor lines (blank lines do not
// end a run; a block comment counts once). An upper bound on the extras in a row.
std::size_t longestExtrasRun(std::string_view text);

SyntaxTree parseSyntax(std::string_view text, const ParseOptions& options = {});

// The same tree as parseSyntax (node for node: symbols, byte ranges, points, fields, flags),
// parsed on up to `threads` threads for big texts. The text is cut into pieces of about
// `pieceBytes` at module items (a line starting a function or module variable after a `}` or
// `;` at brace depth 0, outside comments and strings); each piece is parsed by its own parser
// over the whole buffer with ts_parser_set_included_ranges, so positions are absolute, and the
// piece trees are joined under one root. When the text does not split, or any piece has a
// syntax error (recovery could have reached across the cut) or stopped, the result is
// parseSyntax's. Never used for trees that are reparsed incrementally (the server's).
SyntaxTree parseSyntaxChunked(std::string_view text, const ParseOptions& options, unsigned threads,
                              std::size_t pieceBytes);

// Where parseSyntaxChunked would cut `text` into pieces of about `pieceBytes` (ascending
// offsets of line starts; empty when it would not cut). Exposed for tests and benchmarks.
std::vector<std::uint32_t> moduleItemCuts(std::string_view text, std::size_t pieceBytes);

// Parses `text` without the bytes of `excluded` (ascending, disjoint function-body interiors,
// functionBodyInteriors): the tree of the text those bodies left empty, at the text's own
// offsets. Incomplete (like a stopped parse) when the text holds a run of comment lines too long
// for the runtime (kMaxExtrasInARow).
SyntaxTree parseSyntaxExcluding(std::string_view text, std::span<const struct BodyInterior> excluded,
                                const ParseOptions& options = {});

// Reparses `newText` reusing the unchanged parts of `old`. `edit` turns the old text into
// `newText`. `old` itself is left untouched.
SyntaxTree reparseSyntax(const SyntaxTree& old, std::string_view newText, const SyntaxEdit& edit,
                         const ParseOptions& options = {});

// The same for a sequence of edits, applied in order (a burst of typing between two parses).
SyntaxTree reparseSyntax(const SyntaxTree& old, std::string_view newText, std::span<const SyntaxEdit> edits,
                         const ParseOptions& options = {});

}  // namespace ptx

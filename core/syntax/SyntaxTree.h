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
#include <memory>
#include <span>
#include <string_view>

#include <tree_sitter/api.h>

namespace ptx {

struct ParseOptions {
  // Stop parsing after this many microseconds (0: no limit).
  std::uint64_t timeoutMicros = 0;
  // When non-null, parsing stops as soon as the flag becomes non-zero.
  const std::atomic<std::size_t>* cancellation = nullptr;
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

// Describes replacing oldText[begin, oldEnd) with `inserted`.
SyntaxEdit describeEdit(std::string_view oldText, std::uint32_t begin, std::uint32_t oldEnd,
                        std::string_view inserted);

class SyntaxTree {
 public:
  SyntaxTree() = default;

  // The root node; a null node for a default-constructed tree.
  TSNode root() const { return tree_ ? ts_tree_root_node(tree_.get()) : TSNode{}; }
  const TSTree* raw() const { return tree_.get(); }

  // False when parsing stopped early (time limit or cancellation).
  bool isComplete() const { return tree_ != nullptr && complete_; }

  friend SyntaxTree parseSyntax(std::string_view text, const ParseOptions& options);
  friend SyntaxTree reparseSyntax(const SyntaxTree& old, std::string_view newText,
                                  std::span<const SyntaxEdit> edits, const ParseOptions& options);

 private:
  struct Deleter {
    void operator()(TSTree* tree) const { ts_tree_delete(tree); }
  };
  std::shared_ptr<TSTree> tree_;
  bool complete_ = true;
};

SyntaxTree parseSyntax(std::string_view text, const ParseOptions& options = {});

// Reparses `newText` reusing the unchanged parts of `old`. `edit` turns the old text into
// `newText`. `old` itself is left untouched.
SyntaxTree reparseSyntax(const SyntaxTree& old, std::string_view newText, const SyntaxEdit& edit,
                         const ParseOptions& options = {});

// The same for a sequence of edits, applied in order (a burst of typing between two parses).
SyntaxTree reparseSyntax(const SyntaxTree& old, std::string_view newText, std::span<const SyntaxEdit> edits,
                         const ParseOptions& options = {});

}  // namespace ptx

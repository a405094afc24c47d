// CudaSyntax: the tree-sitter parse of one CUDA C++ text, kept for incremental reparsing.
//
// The grammar is tree-sitter-cuda (grammar-cuda/README.md). Parsing never fails: malformed
// input yields a tree with ERROR and MISSING nodes; a binary text (NUL bytes), a text over the
// size limit and a parse stopped by its time limit or by cancellation yield an empty tree whose
// state says which, never a null tree.
//
// The parser's view. The grammar knows no macros, and CUDA code is full of them: a function
// head `_CCCL_DEVICE static inline T f()` or an operand `: __LDG_PTR (p)` is an ERROR node, and
// a few hundred of those make tree-sitter wrap a whole file in one ERROR (sm_32_intrinsics.hpp,
// cuda_fp16.hpp), with error recovery doubling the parse time on the way. So the parser is
// shown a few spellings differently, byte for byte the same length (offsets, rows and columns
// do not move; newlines are never changed), each recorded as a ViewChange:
//   - qualifier macros: object-like macros whose every definition in the text is made of
//     declaration specifiers (`static`, `inline`, `__device__`, `__attribute__((...))`, other
//     such macros), and the toolkit's own (CCCL's `_CCCL_DEVICE`, `_CCCL_HOST_DEVICE`, the
//     runtime headers' `__CUDA_HOSTDEVICE__`, cooperative groups' `_CG_QUALIFIER` ...), defined
//     in headers the text includes: blanks;
//   - CCCL's and cooperative groups' namespace macros (`_LIBCUDACXX_BEGIN_NAMESPACE_CUDA`,
//     `..._END_...`, `_CG_BEGIN_NAMESPACE`): blanks;
//   - string macros: object-like macros whose every definition in the text is one string
//     literal (`#define __LDG_PTR "l"`), and cooperative groups' `_CG_ASM_PTR_CONSTRAINT`:
//     that literal, or `""`, padded with blanks;
//   - `__align__(N)`: blanks;
//   - `__device__`/`__host__` after a lambda's captures (`[&] __device__ (int i) {...}`), which
//     the grammar lacks: blanks;
//   - `NV_IF_TARGET(c, (a), (b))`, `NV_IF_ELSE_TARGET`, `NV_DISPATCH_TARGET` at the start of a
//     statement: the name blank, the call's and its parenthesized arguments' parentheses braces
//     and its commas semicolons, so the statements passed as arguments parse as blocks;
//   - directives that hold no structure: a conditional group with nothing but directives in
//     it (`#if defined(_MSC_VER)` / `#pragma warning(push)` / `#endif` between an `if (...)`
//     and its body), and `#pragma`, `#warning`, `#error`, `#line`, `#ident` lines: blanks;
//   - a UTF-8 byte-order mark: blanks.
// Other directive lines are shown as they are; macro names are not changed inside them, nor
// inside comments and literals. CudaOutline reads the qualifiers a blanked macro stood for from
// its ViewChange.
//
// Thread safety: a CudaSyntaxTree is immutable after construction and may be read from any
// thread. Parsing functions use one tree-sitter parser per calling thread. No I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "diag/Diagnostic.h"
#include "syntax/SyntaxTree.h"

namespace ptx::cuda {

// The CUDA grammar (tree_sitter_cuda()).
const TSLanguage* cudaLanguage();

// Declaration specifiers that matter to the analysis of what a function is; a bit set.
enum QualifierBits : std::uint16_t {
  kQualGlobal = 1 << 0,       // __global__
  kQualDevice = 1 << 1,       // __device__
  kQualHost = 1 << 2,         // __host__
  kQualForceInline = 1 << 3,  // __forceinline__, __forceinline, __attribute__((always_inline))
  kQualInline = 1 << 4,       // inline, __inline, __inline__
  kQualNoinline = 1 << 5,     // __noinline__, __attribute__((noinline))
  kQualConstexpr = 1 << 6,    // constexpr, consteval
  kQualStatic = 1 << 7,       // static
};

// The qualifier bit a specifier word stands for (0 for any other word).
std::uint16_t qualifierBitsOfWord(std::string_view word);

enum class ViewKind : std::uint8_t {
  QualifierMacro,
  NamespaceMacro,
  StringMacro,
  AlignMacro,
  LambdaQualifier,
  TargetDispatch,
  Directive,
  ByteOrderMark,
};

// One stretch of the text the parser was shown differently (see the file comment). For a
// TargetDispatch, `range` is the macro's name; its braces and semicolons are further bytes up
// to the call's closing parenthesis, `extent`.
struct ViewChange {
  ByteRange range;
  ViewKind kind = ViewKind::QualifierMacro;
  std::uint16_t qualifiers = 0;  // QualifierBits the blanked words stood for.
  std::uint32_t extent = 0;      // End of the last byte changed for this spelling.
};

struct CudaParseOptions {
  ParseOptions parse;  // Time limit and cancellation.
  // Texts over this size are not parsed (state TooLarge). tree-sitter's offsets are 32-bit.
  std::size_t maxTextBytes = std::size_t{256} << 20;
  // Show the parser the view described in the file comment (false: the text as it is).
  bool adaptView = true;
};

class CudaSyntaxTree {
 public:
  enum class State : std::uint8_t {
    Parsed,    // A tree of the whole text (which may hold ERROR nodes).
    Stopped,   // The time limit or the cancellation flag stopped the parse: empty tree.
    Binary,    // The text holds NUL bytes: not parsed, empty tree.
    TooLarge,  // The text is over CudaParseOptions::maxTextBytes: not parsed, empty tree.
    // More comment lines in a row than tree-sitter 0.20 can free (kMaxExtrasInARow, in
    // syntax/SyntaxTree.h): not parsed, empty tree.
    CommentRun,
  };

  CudaSyntaxTree() = default;

  // The root node; a null node for a default-constructed tree.
  TSNode root() const { return tree_ ? ts_tree_root_node(tree_.get()) : TSNode{}; }
  const TSTree* raw() const { return tree_.get(); }

  State state() const { return state_; }
  // True when the tree is a parse of the whole text (not of one of its CudaTextPieces).
  bool isComplete() const { return tree_ != nullptr && state_ == State::Parsed && whole_; }

  // What the parser was shown differently, ascending by range.begin.
  std::span<const ViewChange> viewChanges() const;

  friend CudaSyntaxTree parseCudaSyntax(std::string_view text, const CudaParseOptions& options);
  friend CudaSyntaxTree reparseCudaSyntax(const CudaSyntaxTree& old, std::string_view newText,
                                          std::span<const SyntaxEdit> edits, const CudaParseOptions& options);
  friend class CudaTextPieces;

  struct View;  // The changes and their bytes (CudaSyntax.cpp).

 private:
  std::shared_ptr<TSTree> tree_;
  std::shared_ptr<const View> view_;
  State state_ = State::Parsed;
  bool whole_ = true;
};

CudaSyntaxTree parseCudaSyntax(std::string_view text, const CudaParseOptions& options = {});

// Reparses `newText` reusing the unchanged parts of `old`; `edits`, applied in order, turn the
// old text into `newText` (describeEdit in syntax/SyntaxTree.h builds one). `old` is left
// untouched. A changed spelling the edits touch is re-read whole; when the parser's view
// changes anywhere else (a qualifier macro's `#define` edited, a parenthesis of an NV_IF_TARGET
// call moved), the text is parsed afresh instead. The result is the tree parseCudaSyntax gives
// (inside heavily broken text tree-sitter's error recovery can settle differently when it
// reparses, as it does without the view).
CudaSyntaxTree reparseCudaSyntax(const CudaSyntaxTree& old, std::string_view newText,
                                 std::span<const SyntaxEdit> edits, const CudaParseOptions& options = {});
CudaSyntaxTree reparseCudaSyntax(const CudaSyntaxTree& old, std::string_view newText, const SyntaxEdit& edit,
                                 const CudaParseOptions& options = {});

// A long text parsed in pieces on separate threads. The text is cut only at the start of a
// line where nothing is open: no brace, parenthesis or bracket, and no conditional group but
// ones without `#else`/`#elif` (an include guard, `#if __cccl_ptx_isa >= 100` around a run of
// functions), whose `#if` and `#endif` lines the pieces leave out; the line before ends a
// declaration (`;` or `}`) and the line starts another. So each piece holds whole top-level
// declarations, and its tree holds the nodes the whole text's tree has over those bytes, at
// the same offsets (CudaOutline's outlineOfText joins the pieces' outlines; its test compares
// them with the whole parse's on the toolkit's headers). A text with no such line near a cut
// is one piece.
class CudaTextPieces {
 public:
  // Builds the parser's view once and cuts `text` (which must outlive this) into at most
  // `count` pieces of about equal size.
  CudaTextPieces(std::string_view text, std::size_t count, const CudaParseOptions& options = {});

  std::size_t size() const { return pieces_.size(); }
  // Where piece k starts and ends (its leading and trailing left-out lines included).
  ByteRange extent(std::size_t k) const;
  // Parses piece k with the calling thread's parser; any thread may call it, at once. The
  // tree's offsets are the whole text's; isComplete() is false unless the piece is the whole
  // text (such a tree is no base for reparseCudaSyntax).
  CudaSyntaxTree parse(std::size_t k) const;

 private:
  std::string_view text_;
  CudaParseOptions options_;
  CudaSyntaxTree::State state_ = CudaSyntaxTree::State::Parsed;
  std::shared_ptr<const CudaSyntaxTree::View> view_;
  std::vector<std::vector<TSRange>> pieces_;  // Each piece's bytes, as ranges the parser reads.
  std::vector<ByteRange> extents_;
};

// Where CudaTextPieces may cut `text` (ascending line starts), with the conditional groups'
// lines a cut there leaves out. Exposed for tests.
struct TextCut {
  std::uint32_t offset = 0;
  std::vector<ByteRange> leftOut;  // The `#if` and `#endif` lines of the groups open at the cut.
};
std::vector<TextCut> topLevelCuts(std::string_view text);

}  // namespace ptx::cuda

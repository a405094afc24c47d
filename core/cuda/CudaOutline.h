// CudaOutline: the functions, loops, call sites and asm statements of a CUDA syntax tree, as
// plain structs with byte ranges, and the questions the inline-PTX rules ask of them: which
// function and loops enclose a byte offset, and which functions kernels reach by calls.
//
// The inline-PTX extractor finds asm statements by tokens (in macro bodies, under `#if` inside
// operand lists, where the tree has ERROR nodes) and asks the outline for an offset's context,
// so the queries take any offset. Everything here is syntax: names are compared as spelled,
// no overload or template is resolved.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuda/CudaSyntax.h"
#include "diag/Diagnostic.h"

namespace ptx::cuda {

inline constexpr std::int32_t kNoIndex = -1;

struct CudaFunction {
  // The function_definition node (or lambda_expression), widened to the qualifier macros the
  // parser's view blanked in front of it (`_CCCL_DEVICE static inline ...`).
  ByteRange range;
  ByteRange body;       // The compound statement, braces included.
  std::string name;     // As written: "f", "ns::foo", "Foo::bar", "operator()", "f<int>"; empty for a lambda.
  std::string simpleName;  // The last identifier of the name, template arguments stripped ("bar").
  ByteRange nameRange;
  bool isKernel = false;       // __global__
  bool isDevice = false;       // __device__
  bool isHost = false;         // __host__
  bool isForceInline = false;  // __forceinline__, __forceinline, __attribute__((always_inline))
  bool isInline = false;       // inline, __inline, __inline__
  bool isNoinline = false;     // __noinline__, __attribute__((noinline))
  bool isConstexpr = false;    // constexpr, consteval
  bool isStatic = false;
  // Inside a template_declaration (a function template, a member of a class template, a lambda
  // in either), or a lambda with template parameters.
  bool isTemplate = false;
  bool isLambda = false;
  std::int32_t parent = kNoIndex;  // The function whose body holds this one (lambdas, local classes).
};

enum class CudaLoopKind : std::uint8_t { For, RangeFor, While, DoWhile };

struct CudaLoop {
  CudaLoopKind kind = CudaLoopKind::For;
  ByteRange range;
  ByteRange body;
  // The condition without its parentheses; empty (begin == end) when there is none (`for (;;)`,
  // a range-based for).
  ByteRange condition;
  std::int32_t function = kNoIndex;  // The innermost enclosing function.
  std::int32_t parent = kNoIndex;    // The innermost enclosing loop of the same function.
  std::int32_t outer = kNoIndex;     // The innermost loop holding this one, in any function (the queries walk it).
};

struct CudaCall {
  std::string callee;  // The callee's last identifier, template arguments stripped ("foo" for `ns::foo<4>(x)`).
  ByteRange range;     // The call expression.
  ByteRange calleeRange;
  bool isKernelLaunch = false;  // `k<<<grid, block>>>(...)`
  std::int32_t function = kNoIndex;
};

// An asm statement the grammar parsed (tree-sitter-c's gnu_asm_expression).
struct CudaAsm {
  ByteRange range;  // From `asm` to the closing parenthesis.
  std::int32_t function = kNoIndex;
  std::int32_t loop = kNoIndex;  // The innermost enclosing loop of the same function.
};

struct CudaOutline {
  // Each list is in source order of its starts; an element's index is its identity. Ranges of
  // one list nest or are disjoint (they are tree nodes).
  std::vector<CudaFunction> functions;
  std::vector<CudaLoop> loops;
  std::vector<CudaCall> calls;  // Calls without a callee name (`(*f)(x)`) are left out.
  std::vector<CudaAsm> asms;

  // The innermost function whose range holds `offset` (kNoIndex when none): O(log n + depth).
  std::int32_t enclosingFunction(std::uint32_t offset) const;
  // The loops holding `offset` inside its innermost enclosing function (a loop around a lambda
  // does not enclose the lambda's body), innermost first.
  std::vector<std::int32_t> enclosingLoops(std::uint32_t offset) const;
};

// Walks the tree once, iteratively (deep nesting costs no stack). `text` is the text parsed.
CudaOutline outlineOf(const CudaSyntaxTree& tree, std::string_view text);

// The smallest piece outlineOfText gives a thread of its own: below it, starting a thread and
// building the view costs a sizeable part of what parsing in parallel saves (a piece this size
// parses in about 4 ms on the development machine).
inline constexpr std::size_t kMinPieceBytes = std::size_t{64} << 10;

// The outline of `text` parsed here, the one outlineOf(parseCudaSyntax(text), text) gives. A
// text of at least two pieces of `minPieceBytes` is parsed and walked in pieces on up to
// `threads` threads at once (CudaTextPieces), their outlines joined; 1 thread parses it whole.
CudaOutline outlineOfText(std::string_view text, unsigned threads = 1, std::size_t minPieceBytes = kMinPieceBytes);

// The indices of the kernels (__global__ functions).
std::vector<std::int32_t> kernelsOf(const CudaOutline& outline);

// Which functions the `roots` reach by calls, the roots included: a call reaches every function
// whose simpleName is its callee (all overloads); a callee no function is named after is
// ignored. A lambda or a local class's member counts as reached from the function it is defined
// in. One flag per function.
std::vector<bool> reachableFrom(const CudaOutline& outline, std::span<const std::int32_t> roots);

}  // namespace ptx::cuda

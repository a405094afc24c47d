// SourceOutline: where asm statements sit in the C++ source — their function (kernel, device
// function, template, lambda, host-only), the loops around them, and whether a kernel reaches
// them — from the CUDA syntax tree (core/cuda/CudaOutline).
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cuda/AsmStatement.h"
#include "cuda/CppLexer.h"
#include "cuda/DevicePasses.h"
#include "cuda/Preprocessor.h"
#include "inline_asm/AsmRuleContext.h"

namespace ptx {

namespace cuda {
struct CudaOutline;
class CudaSyntaxTree;
}  // namespace cuda

class SourceOutline {
 public:
  // Parses `text` with the CUDA grammar, on up to `parseThreads` threads (cuda::outlineOfText),
  // or reuses `tree`, a parse of the same text.
  SourceOutline(std::string_view text, const cuda::LexedSource& source, std::span<const cuda::DevicePass> passes,
                const cuda::CudaSyntaxTree* tree = nullptr, unsigned parseThreads = 1);
  ~SourceOutline();

  // The pass whose statements are placed next: calls and kernels the pass does not compile
  // (under a false `#if`) reach nothing.
  void setPass(const cuda::PassView& view);
  StatementPlacement placementOf(const cuda::AsmStatement& statement) const;

 private:
  // Whether a declaration's specifiers hold an identifier spelled like a macro.
  bool hasForeignQualifierMacro(ByteRange declaration) const;

  std::string_view text_;
  const cuda::LexedSource& source_;
  std::unique_ptr<cuda::CudaOutline> outline_;
  // Per outline function: whether a kernel calls it, directly or not (Unknown: only through a
  // call whose name several functions share, such as `A<float>::copy` and `B<T>::copy`).
  std::vector<cuda::Truth> reachable_;
  bool hasKernels_ = false;
  // The outline's calls by callee name (a statement's function's callers, for polling loops).
  std::unordered_map<std::string_view, std::vector<std::uint32_t>> callsByCallee_;
};

}  // namespace ptx

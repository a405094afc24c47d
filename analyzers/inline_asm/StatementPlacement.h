// SourceOutline: where asm statements sit in the C++ source — their function (kernel, device
// function, template, lambda, host-only), the loops around them, and whether a kernel reaches
// them — from the CUDA syntax tree (core/cuda/CudaOutline).
#pragma once

#include <memory>
#include <span>
#include <string_view>
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
  // Parses `text` with the CUDA grammar (or reuses `tree`, a parse of the same text).
  SourceOutline(std::string_view text, const cuda::LexedSource& source, std::span<const cuda::DevicePass> passes,
                const cuda::CudaSyntaxTree* tree = nullptr);
  ~SourceOutline();

  // The pass whose statements are placed next: calls and kernels the pass does not compile
  // (under a false `#if`) reach nothing.
  void setPass(const cuda::PassView& view);
  StatementPlacement placementOf(const cuda::AsmStatement& statement) const;

 private:
  std::string_view text_;
  const cuda::LexedSource& source_;
  std::unique_ptr<cuda::CudaSyntaxTree> ownTree_;
  std::unique_ptr<cuda::CudaOutline> outline_;
  std::vector<bool> reachable_;  // Per outline function: a kernel calls it, directly or not.
  bool hasKernels_ = false;
};

}  // namespace ptx

// CudaLint: the analysis of a CUDA source's inline PTX, as ptxlint and the server run it.
//
// For each device pass: preprocess (Preprocessor), extract the asm statements the pass
// compiles (AsmExtractor), substitute operands and lint every template as PTX for the pass's
// target (one synthesized module, AsmFragment), map those findings back to the `.cu` bytes, and
// run the inline-asm rules (ASM0xx). Findings that several passes share are reported once.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "Lint.h"
#include "cuda/AsmStatement.h"
#include "cuda/DevicePasses.h"

namespace ptx {

namespace cuda {
class CudaSyntaxTree;
}  // namespace cuda

struct CudaLintOptions {
  // The passes to check; empty: cuda::defaultPasses from the file's own guards.
  std::vector<cuda::DevicePass> passes;
  // Macros the build defines besides the pass's own (`-D` flags), applied after them.
  std::vector<std::pair<std::string, std::string>> defines;
  // Rule settings (by code), limits and the parse options, as for PTX.
  LintOptions lint;
  // A parse of the same text (the server reparses its documents incrementally); null: the
  // text is parsed here.
  const cuda::CudaSyntaxTree* tree = nullptr;
  // When set, only the statements whose keyword lies in this range are checked: the result's
  // statements and diagnostics are theirs alone (the server's re-check of one edited statement;
  // every inline-asm check reads one statement and its place in the source, nothing else).
  std::optional<ByteRange> onlyStatementsIn;
};

struct CudaLintResult {
  std::vector<Diagnostic> diagnostics;  // Sorted by position, then code.
  std::vector<cuda::DevicePass> passes;  // The passes checked.
  std::size_t statements = 0;             // Distinct asm statements found (any pass).
  std::vector<cuda::AsmStatement> firstPassStatements;  // Every statement, in source order, as the first pass that compiles it sees it.
};

CudaLintResult lintCudaText(std::string_view text, const CudaLintOptions& options = {});

// The macros one pass predefines as lintCudaText evaluates it: nvcc's for the pass (over the
// compilation's passes), the assumed host build's (64-bit Linux, GCC 12, C++17), then `defines`.
std::vector<std::pair<std::string, std::string>> macrosForPass(const cuda::DevicePass& pass,
                                                               std::span<const cuda::DevicePass> compilation,
                                                               const std::vector<std::pair<std::string, std::string>>& defines = {});

// True for the file names ptxlint and the server treat as CUDA C++ (.cu, .cuh, and C/C++
// headers: .h, .hpp, .hh, .hxx, .inl, .inc, .cuinl).
bool isCudaSourcePath(std::string_view path);

}  // namespace ptx

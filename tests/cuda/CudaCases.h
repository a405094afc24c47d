// CudaCases: reading the `.cu` test cases of tests/cuda/cases and tests/rules/<CODE>/ — their
// `// nvcc-flags:` line (the device passes, as nvcc would run them) and their
// `// expect: CODE at "text"` markers — and linting them as ptxlint does.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "diag/Diagnostic.h"
#include "inline_asm/CudaLint.h"

namespace ptx::test {

struct ExpectedFinding {
  std::uint32_t line = 0;  // 1-based.
  std::string code;
  std::optional<std::uint32_t> column;  // 1-based byte column of the `at "text"`, when given.
};

std::vector<ExpectedFinding> expectedCudaFindings(const std::string& text);

// The passes of the case's `// nvcc-flags:` line (sm_80 when it has none).
std::vector<cuda::DevicePass> passesOfCase(const std::string& text);

// The case linted for its passes; `enable` turns an opt-in rule on.
CudaLintResult lintCudaCase(const std::string& text, const std::vector<std::string>& enable = {});

// .cu files of a folder, sorted.
std::vector<std::filesystem::path> cudaFilesIn(const std::filesystem::path& folder);

}  // namespace ptx::test

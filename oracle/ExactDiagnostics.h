// ExactDiagnostics: exact mode's findings in a CUDA source's own bytes — what `ptxlint --nvcc`
// (cli/ExactMode) and the server's opt-in `cuda.exactMode` (server/CudaExactMode) both report.
// It compiles the file on disk once per device pass (NvccRunner: nvcc -ptx -lineinfo with the
// file's own flags, then ptxas -v on each PTX) and turns nvcc's errors (NVC001), ptxas's
// (NVC002) and the PTX's own lint findings into diagnostics on the `.cu` lines they map to.
//
// A library apart from ptxoracle: it lints PTX (ptxanalyzers), which the process runners never
// need; only the binaries link it.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "Lint.h"
#include "NvccRunner.h"
#include "cuda/DevicePasses.h"
#include "diag/Diagnostic.h"

namespace ptx::oracle {

struct ExactRequest {
  std::filesystem::path file;              // The source on disk that nvcc compiles.
  std::vector<cuda::DevicePass> passes;    // Empty: the text's own guards decide (as the lint does).
  std::vector<std::string> flags;          // The compile command's argv, or none (flagsForPtx filters).
  std::filesystem::path workingDirectory;  // The compile command's "directory"; empty: the current one.
  LintOptions lint;                        // For the PTX's findings (its target override is ignored).
  ExactOptions options;                    // Which nvcc and ptxas, and their timeout.
};

struct ExactReport {
  std::vector<cuda::DevicePass> passes;  // The passes compiled, in the order of result.passes.
  ExactResult result;                    // Each pass's outcome, with ptxas -v's figures per function.
  std::vector<Diagnostic> diagnostics;   // In `text`'s bytes, each finding once.
  std::vector<std::string> problems;     // Why a step did not run or finish (nvcc missing, a timeout).
};

// Runs exact mode on `request.file`, whose contents are `text`.
ExactReport runExactMode(std::string_view text, const ExactRequest& request);

}  // namespace ptx::oracle

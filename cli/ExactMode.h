// ExactMode: `ptxlint --nvcc` — compile a CUDA source with nvcc for each device pass (`-ptx
// -lineinfo`, the file's own flags), run ptxas on each pass's PTX, lint that PTX, and report
// nvcc's errors, ptxas's errors and the PTX findings at the `.cu` lines they come from (through
// `.loc` and the line inside the inline-asm block; oracle/NvccRunner, oracle/PtxLineMap).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "CudaFiles.h"
#include "diag/Diagnostic.h"

namespace ptx::cli {

// Diagnostics in `text`'s bytes (the file at `path`); `problems` says why a step did not run
// (nvcc missing, a timeout), for stderr.
std::vector<Diagnostic> exactModeDiagnostics(const std::string& path, std::string_view text, const CudaFileSetup& setup,
                                             std::vector<std::string>& problems);

}  // namespace ptx::cli

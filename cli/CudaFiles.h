// CudaFiles: how ptxlint checks a CUDA source (.cu, .cuh, headers): which device passes (the
// command line, the project's `.ptxls.json`, the compilation database, or the file's own
// guards), and the inline-PTX lint over them.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "CudaSetup.h"
#include "Lint.h"
#include "inline_asm/CudaLint.h"

namespace ptx::cli {

// The CUDA options of the command line.
struct CudaCommandLine {
  std::optional<std::string> arch;                        // --cuda-arch sm_90a,sm_100a
  std::optional<std::filesystem::path> compileCommands;   // --compile-commands DIR
  bool nvcc = false;                                      // --nvcc (exact mode)
};

struct CudaFileSetup {
  CudaLintOptions options;
  config::CudaSetup setup;  // Passes, where they came from, problems for stderr, the nvcc command.
};

// `projectArch`: the nearest `.ptxls.json`'s `cuda.arch` (empty when none). Order: the command
// line, then `.ptxls.json`, then compile_commands.json, then the file's guards (else sm_80).
CudaFileSetup cudaSetupFor(const std::string& path, const LintOptions& lint, const std::vector<std::string>& projectArch,
                           const CudaCommandLine& commandLine);

// Whether a directory walk takes this file: .cu and .cuh always, C/C++ headers when they hold
// an asm statement.
bool isCudaFileForWalk(const std::filesystem::path& path);

}  // namespace ptx::cli

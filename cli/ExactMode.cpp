// ExactMode: `ptxlint --nvcc` over one CUDA source — its setup's passes and compile command
// handed to the shared exact-mode engine (oracle/ExactDiagnostics), whose problems go to stderr.
#include "ExactMode.h"

#include "ExactDiagnostics.h"

namespace ptx::cli {

std::vector<Diagnostic> exactModeDiagnostics(const std::string& path, std::string_view text, const CudaFileSetup& setup,
                                             std::vector<std::string>& problems) {
  oracle::ExactRequest request;
  request.file = path;
  request.passes = setup.options.passes;
  request.flags = setup.setup.nvccArguments;
  request.workingDirectory = setup.setup.nvccDirectory;
  request.lint = setup.options.lint;
  oracle::ExactReport report = oracle::runExactMode(text, request);
  for (const std::string& problem : report.problems) problems.push_back("--nvcc: " + problem);
  return std::move(report.diagnostics);
}

}  // namespace ptx::cli

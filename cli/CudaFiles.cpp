// CudaFiles: device passes for a CUDA source, from the most explicit source that gives them.
#include "CudaFiles.h"

#include <fstream>
#include <iterator>

#include "CompileCommands.h"
#include "cuda/DevicePasses.h"

namespace ptx::cli {

namespace fs = std::filesystem;

CudaFileSetup cudaSetupFor(const std::string& path, const LintOptions& lint, const std::vector<std::string>& projectArch,
                           const CudaCommandLine& commandLine) {
  CudaFileSetup setup;
  setup.options.lint = lint;
  if (commandLine.arch) {
    cuda::PassList list = cuda::parseCudaArchList(*commandLine.arch, "--cuda-arch ");
    if (!list.error.empty()) setup.problems.push_back("--cuda-arch: " + list.error);
    setup.options.passes = std::move(list.passes);
    setup.passesFrom = "--cuda-arch";
  }
  std::error_code error;
  fs::path absolute = path == "-" ? fs::current_path(error) / "stdin.cu" : fs::absolute(path, error);
  config::CudaTargets targets;
  if (setup.options.passes.empty() || commandLine.nvcc) targets = config::cudaTargetsFor(absolute, commandLine.compileCommands);
  if (targets.command && targets.nvcc.isNvcc) {
    setup.nvccArguments = targets.nvcc.arguments;
    setup.nvccDirectory = targets.nvcc.directory;
  }
  if (setup.options.passes.empty() && !projectArch.empty()) {
    cuda::PassList list = cuda::passesForArchNames(projectArch, ".ptxls.json cuda.arch ");
    if (!list.error.empty()) setup.problems.push_back(".ptxls.json cuda.arch: " + list.error);
    setup.options.passes = std::move(list.passes);
    setup.passesFrom = ".ptxls.json";
  }
  if (setup.options.passes.empty() && !targets.nvcc.passes.empty()) {
    setup.options.passes = targets.nvcc.passes;
    setup.passesFrom = targets.database.string();
    for (const auto& macro : targets.nvcc.macroFlags)
      if (!macro.undefine) setup.options.defines.emplace_back(macro.name, macro.value);
  }
  if (setup.options.passes.empty()) setup.passesFrom = "the file's #if guards";
  return setup;
}

bool isCudaFileForWalk(const fs::path& path) {
  std::string extension = path.extension().string();
  if (extension == ".cu" || extension == ".cuh") return true;
  if (extension != ".h" && extension != ".hpp" && extension != ".hh" && extension != ".hxx" && extension != ".inl" &&
      extension != ".cuinl")
    return false;
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (std::size_t at = text.find("asm"); at != std::string::npos; at = text.find("asm", at + 1)) {
    bool before = at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_') ||
                  (at >= 2 && text.compare(at - 2, 2, "__") == 0);
    std::size_t after = at + 3;
    while (after < text.size() && text[after] == '_') ++after;
    if (before && (after >= text.size() || !std::isalnum(static_cast<unsigned char>(text[after])))) return true;
  }
  return false;
}

}  // namespace ptx::cli

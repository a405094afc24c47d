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
  std::optional<config::ArchChoice> chosen;
  if (commandLine.arch) {
    chosen = config::ArchChoice{cuda::parseCudaArchList(*commandLine.arch, "--cuda-arch "), "--cuda-arch", "--cuda-arch"};
  } else if (!projectArch.empty()) {
    chosen = config::ArchChoice{cuda::passesForArchNames(projectArch, ".ptxls.json cuda.arch "), ".ptxls.json cuda.arch",
                                ".ptxls.json"};
  }
  // The compile command is looked up when it may give the passes, or for exact mode's argv.
  std::optional<config::CudaTargets> targets;
  if (!chosen || commandLine.nvcc) {
    std::error_code error;
    fs::path absolute = path == "-" ? fs::current_path(error) / "stdin.cu" : fs::absolute(path, error);
    targets = config::cudaTargetsFor(absolute, commandLine.compileCommands);
  }
  CudaFileSetup file;
  file.setup = config::resolveCudaSetup(chosen, targets ? &*targets : nullptr);
  file.options.lint = lint;
  file.options.passes = file.setup.passes;
  file.options.defines = file.setup.defines;
  return file;
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

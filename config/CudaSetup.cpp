// CudaSetup: the one precedence between architecture lists and compile_commands.json.
#include "CudaSetup.h"

namespace ptx::config {

CudaSetup resolveCudaSetup(const std::optional<ArchChoice>& chosen, const CudaTargets* targets) {
  CudaSetup setup;
  if (chosen && (!chosen->list.passes.empty() || !chosen->list.error.empty())) {
    if (!chosen->list.error.empty()) setup.problems.push_back(chosen->name + ": " + chosen->list.error);
    setup.passes = chosen->list.passes;
    setup.passesFrom = chosen->from;
  }
  if (targets && targets->command && targets->nvcc.isNvcc) {
    setup.nvccArguments = targets->nvcc.arguments;
    setup.nvccDirectory = targets->nvcc.directory;
  }
  if (setup.passes.empty() && targets) {
    setup.problems.insert(setup.problems.end(), targets->problems.begin(), targets->problems.end());
    if (!targets->nvcc.passes.empty()) {
      setup.passes = targets->nvcc.passes;
      setup.passesFrom = targets->database.string();
      for (const MacroFlag& macro : targets->nvcc.macroFlags)
        if (!macro.undefine) setup.defines.emplace_back(macro.name, macro.value);
    }
  }
  if (setup.passes.empty()) setup.passesFrom = "the file's #if guards";
  return setup;
}

}  // namespace ptx::config

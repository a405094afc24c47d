// CudaSetup: which device passes and build macros a CUDA source is checked with, and the
// compile command exact mode reruns — one precedence for ptxlint and ptxls alike.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "CompileCommands.h"
#include "cuda/DevicePasses.h"

namespace ptx::config {

struct CudaSetup {
  std::vector<cuda::DevicePass> passes;  // Empty: the file's own guards decide.
  std::vector<std::pair<std::string, std::string>> defines;  // -D flags of its compile command.
  std::string passesFrom;                // For messages: "--cuda-arch", a compile_commands.json, the guards.
  std::vector<std::string> problems;     // Names or databases that could not be used.
  // The compile_commands.json entry's nvcc argv and directory (also when an architecture list
  // gave the passes), for exact mode; empty when there is none.
  std::vector<std::string> nvccArguments;
  std::filesystem::path nvccDirectory;
};

// An architecture list the user gave: its passes, how problems name it ("--cuda-arch") and how
// the setup says where its passes came from.
struct ArchChoice {
  cuda::PassList list;
  std::string name;
  std::string from;
};

// The precedence: `chosen` (the command line, else the settings) wins; else the compile
// command's passes with its -D flags; else none, and the file's guards decide. `targets` (the
// compile_commands.json lookup, null when not looked up) gives exact mode its argv either way.
CudaSetup resolveCudaSetup(const std::optional<ArchChoice>& chosen, const CudaTargets* targets);

}  // namespace ptx::config

// Settings: what a user or project configures (ptxls and ptxlint) — from `initializationOptions`,
// `workspace/didChangeConfiguration` and a `.ptxls.json` found upward from the document.
//
// Later sources override earlier ones key by key: built-in defaults, then the client's
// settings, then the project file (the project's choice wins, as in ruff and clang-tidy).
// Finding and reading project files happens here only, for both tools.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "Lint.h"

namespace ptx::config {

struct FormatSettings {
  std::optional<unsigned> indentWidth;
  std::optional<bool> useTabs;
  std::optional<unsigned> maxBlankLines;
};

struct Settings {
  std::optional<std::string> target;  // Overrides each module's `.target`.
  std::map<std::string, RuleSetting, std::less<>> rules;  // By rule code.
  std::chrono::milliseconds debounce{10};
  std::size_t maxAnalyzedBytes = std::size_t{32} << 20;
  FormatSettings format;
  // Inlay hints with the live 32-bit register count after each instruction (off: asked for
  // on demand, e.g. by the VS Code command "Toggle Live Register Hints").
  bool liveRegisterHints = false;
  // Run ptxas -v in the background after each full analysis of a document (when ptxas is
  // installed), so the verify lenses show its figure without a click (off: on demand only).
  bool verifyWithPtxas = false;
  // `cuda.arch`: the device passes of CUDA files, as nvcc's -arch names ("sm_90a" is the
  // compute_90 and compute_90a passes; core/cuda/DevicePasses.h). Empty: compile_commands.json
  // or the default decides.
  std::vector<std::string> cudaArch;
  // `cuda.exactMode`: the server compiles each saved CUDA document with nvcc and ptxas (on open
  // and on save) and reports their errors at its lines. Only the user may turn it on (client
  // settings): a repository's `.ptxls.json` cannot make an editor run nvcc (loadProjectFile
  // ignores it).
  bool cudaExactMode = false;
};

// Merges one JSON settings object into `settings`. Accepts the object itself or one nested
// under "ptxls". Returns a message for each key or value it could not use.
std::vector<std::string> mergeSettings(Settings& settings, const nlohmann::json& object);

// The nearest `.ptxls.json` in the folder of `document` or any folder above it.
std::optional<std::filesystem::path> findProjectFile(const std::filesystem::path& document);

// What reading a project file over some settings gave.
struct ProjectSettings {
  Settings settings;  // The settings it started from, overlaid with the file when it was usable.
  // Why the whole file was ignored ("cannot open file", "not valid JSON", "not a JSON
  // object"); empty when it was read.
  std::string unusable;
  std::vector<std::string> problems;  // The keys or values it could not use (mergeSettings).
};

// Reads the project file `file` (JSON with comments) over `base`. `cuda.exactMode` keeps
// `base`'s value (a project file cannot turn it on or off) and is reported as a problem.
ProjectSettings loadProjectFile(const std::filesystem::path& file, Settings base = {});

// The file system path of a `file://` URI (percent-decoded); nullopt for other schemes.
std::optional<std::filesystem::path> pathOfUri(std::string_view uri);

LintOptions lintOptionsFor(const Settings& settings);

}  // namespace ptx::config

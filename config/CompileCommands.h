// CompileCommands: a file's CUDA device passes and compile flags from compile_commands.json.
//
// Found as clangd finds it: `compile_commands.json` or `build/compile_commands.json` in the file's
// folder or the nearest folder above it, or in a directory named explicitly
// (`--compile-commands DIR`). Entries are read in both forms ("arguments", or "command" split
// as a POSIX shell splits it). From an nvcc entry come the device passes, as nvcc 13 means
// `-arch`, `-code`, `-gencode`/`--generate-code`/`--gpu-architecture`, and the flags an exact-mode
// nvcc run and the guard evaluation need (-I, -D/-U, -std, the whole argv). Flags it does not
// know are skipped, never an error: CMake's entries carry `-forward-unknown-to-host-compiler`,
// `-ccbin`, `-Xcompiler` (whose -D/-U/-I do count: the host compiler preprocesses the device
// passes), `-rdc=true`, `--options-file`... (response files are not expanded).
// Nothing here throws: an unusable file or entry is a value that says why.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuda/DevicePasses.h"

namespace ptx::config {

// One entry of compile_commands.json.
struct CompileCommand {
  std::filesystem::path directory;    // Absolute: the entry's working directory.
  std::filesystem::path file;         // Absolute and lexically normal.
  std::vector<std::string> arguments;  // The argv, compiler first ("command" split).
};

struct CompilationDatabase {
  std::filesystem::path path;  // The compile_commands.json read.
  std::vector<CompileCommand> commands;
  // Why the whole file was not used ("cannot open file", "not valid JSON: ...", "not a JSON
  // array"); empty when it was read.
  std::string unusable;
  std::vector<std::string> problems;  // Entries skipped, and why ("entry 3: no \"file\"").
};

// The compile_commands.json clangd would use for `file`: in its folder or any folder above,
// `compile_commands.json` before `build/compile_commands.json` in each folder, nearest first.
std::optional<std::filesystem::path> findCompilationDatabase(const std::filesystem::path& file);

// The compile_commands.json of an explicitly named place (`--compile-commands DIR`): DIR itself
// when it is a file, else DIR/compile_commands.json; nullopt when there is none.
std::optional<std::filesystem::path> compilationDatabaseIn(const std::filesystem::path& directory);

CompilationDatabase loadCompilationDatabase(const std::filesystem::path& path);
// The same from text already read; `path` resolves relative directories and is kept for messages.
CompilationDatabase parseCompilationDatabase(std::string_view text, const std::filesystem::path& path);

// Splits a "command" string into an argv as a POSIX shell does: blanks separate words, '...'
// is literal, "..." keeps blanks and lets a backslash escape " \ $ ` (other backslashes stay),
// and a backslash outside quotes escapes any character. An unterminated quote ends at the end.
std::vector<std::string> splitCommandLine(std::string_view command);

struct CommandMatch {
  const CompileCommand* command = nullptr;  // Null when the database has no entry at all.
  // True when the entry is another file's (a header, or a source not in the database). clangd
  // interpolates the same way; the rule here: the entry whose file's folder shares the most
  // leading path components with this file's folder, then one with the same stem
  // (kernel.cuh → kernel.cu), then a .cu source, then the first in the database.
  bool inferred = false;
};

// The entry for `file` (made absolute and normalized): the first entry whose file is that
// path, else an inferred one.
CommandMatch commandFor(const CompilationDatabase& database, const std::filesystem::path& file);

// A -D or -U of a command, in the order the device preprocessing applies them (after nvcc's
// own pass macros).
struct MacroFlag {
  std::string name;
  std::string value;      // "1" for `-DNAME`, as gcc gives it; empty for -U.
  bool undefine = false;  // -U.
};

// What an nvcc entry says about the device compilation.
struct NvccCommand {
  bool isNvcc = false;  // argv[0] (after a launcher such as ccache) is nvcc.
  // The passes, in nvcc's order (the last -arch's, then each -gencode's), each once. Empty when
  // the command is not nvcc or names no architecture nvcc 13 knows.
  std::vector<cuda::DevicePass> passes;
  // No architecture option at all: nvcc 13's default, -arch=sm_75 (`nvcc --dryrun` shows
  // compute_75), which `passes` then holds with the origin "nvcc's default -arch=sm_75".
  bool defaultArch = false;
  std::vector<std::string> problems;  // Architecture values it could not use.
  std::vector<std::filesystem::path> includeDirs;        // -I (-Xcompiler's too), made absolute against `directory`.
  std::vector<std::filesystem::path> systemIncludeDirs;  // -isystem.
  std::vector<std::string> preIncludes;                  // -include / --pre-include.
  // In nvcc's order (dryrun): the macros nvcc's own flags define in every pass (-rdc=true and
  // -dc → __CUDACC_RDC__, --expt-relaxed-constexpr → __CUDACC_RELAXED_CONSTEXPR__,
  // --extended-lambda → __CUDACC_EXTENDED_LAMBDA__, -G → __CUDACC_DEBUG__), then the -D/-U given
  // to the host compiler (-Xcompiler, which also preprocesses the device passes), then -D/-U.
  std::vector<MacroFlag> macroFlags;
  std::string standard;  // "c++20" from -std=c++20; empty: nvcc's default (C++17).
  std::filesystem::path directory;     // The entry's, for running nvcc again.
  std::vector<std::string> arguments;  // The entry's argv, unchanged.
};

// Reads an entry's flags (pure: no file is read).
NvccCommand readNvccCommand(const CompileCommand& command);

// The macros a pass of this command predefines: the pass's own (DevicePass::macros over the
// command's passes), then the command's -D/-U applied in order.
std::vector<std::pair<std::string, std::string>> macrosFor(const NvccCommand& command, const cuda::DevicePass& pass);

// Everything the lint of one CUDA file needs from the compilation database.
struct CudaTargets {
  std::filesystem::path database;  // The compile_commands.json used; empty when none was found.
  std::optional<CompileCommand> command;  // The entry used.
  bool inferred = false;                  // The entry is another file's (CommandMatch).
  NvccCommand nvcc;                       // Its flags and passes (isNvcc false: no passes).
  // What to tell the user: why no passes came from the database (no compile_commands.json,
  // unusable, no entry, not nvcc) or which architecture values of the entry were not usable,
  // each naming the compile_commands.json. With no passes the caller falls back to
  // `.ptxls.json` or the default and can say why.
  std::vector<std::string> problems;
};

// Finds (or takes `explicitDirectory`'s) compile_commands.json, reads it and the entry for `file`.
CudaTargets cudaTargetsFor(const std::filesystem::path& file,
                           const std::optional<std::filesystem::path>& explicitDirectory = std::nullopt);
// The same over a database already loaded (a server keeps it between documents).
CudaTargets cudaTargetsFor(const std::filesystem::path& file, const CompilationDatabase& database);

}  // namespace ptx::config

// NvccRunner: exact mode's engine. Compiles a .cu file with nvcc, one device pass at a time, to
// PTX with line information, assembles each PTX with ptxas, and maps ptxas's errors back to the
// .cu lines of the asm templates they come from (`ptxlint --nvcc` and the server's opt-in
// setting build on it).
//
// Each pass is its own `nvcc -ptx -lineinfo -gencode arch=compute_XX,code=compute_XX` run:
// `nvcc -ptx -arch=sm_90a` writes only one pass's PTX and checks it with ptxas only from
// compute_90 on (../shared/docs/inline-ptx.md §5), so every pass is compiled and assembled here.
// nvcc's own diagnostics already name the .cu file and line and are kept as they are; ptxas's
// name a temporary PTX file, so they go through PtxLineMap.
//
// An edge library: it starts processes (argument vectors, no shell, a timeout; Process.h), writes
// to a temporary directory that it removes, and reads the sources the PTX's `.file` table names.
// It runs only when the user asked for exact mode.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "PtxLineMap.h"
#include "PtxasRunner.h"

namespace ptx::oracle {

// The nvcc to run: $NVCC, else $CUDA_HOME/bin/nvcc, else /usr/local/cuda/bin/nvcc, else the
// first `nvcc` on $PATH; nullopt when there is none.
std::optional<std::string> findNvcc();

// One device pass: the virtual architecture nvcc compiles for ("compute_90a") and the target
// ptxas assembles that PTX for ("sm_90a"; "compute_90" only checks it, as nvcc does for a pass it
// keeps as PTX; empty: the virtual architecture's sm_ twin).
struct NvccPassRequest {
  std::string virtualArch;
  std::string ptxTarget;
};

// A diagnostic of nvcc's front end (cudafe/cicc): `file(line): error: message`, already in the
// source's terms. nvcc's lines without a file ("nvcc fatal : ...") have an empty file, line 0.
struct CompilerDiagnostic {
  std::string file;       // As nvcc printed it, made absolute against the working directory.
  std::uint32_t line = 0;
  std::string severity;   // "error", "warning", "remark", "catastrophic error", "fatal".
  std::string message;    // Without the severity and the diagnostic number.
};

// One line of ptxas's report against the pass's PTX, with where it lands in the sources.
struct PtxasDiagnostic {
  std::string severity;         // "error", "warning" or "fatal".
  std::uint32_t ptxLine = 0;    // 0: ptxas named no line (a fatal summary, a whole-kernel limit).
                                // Also read from "on line 'N'" in a message without a location.
  std::string message;
  SourceLocation source;        // source.line == 0 when the PTX line maps to no `.loc`; a
                                // relative `.file` path made absolute against the working directory.
};

// One pass's outcome. nvcc itself checks its PTX with ptxas from compute_90 on and then exits
// non-zero when ptxas rejects it although it wrote the PTX: those ptxas lines are left out of
// nvccDiagnostics (ptxasDiagnostics has them, from our own ptxas run, mapped).
struct ExactPass {
  NvccPassRequest pass;          // ptxTarget filled in.
  int nvccExitCode = -1;         // -1: nvcc did not run or did not finish.
  std::vector<CompilerDiagnostic> nvccDiagnostics;
  std::string nvccOutput;        // Everything nvcc printed, for a log.
  std::string ptx;               // Empty when nvcc wrote none.
  int ptxasExitCode = -1;        // -1: ptxas did not run (no PTX) or did not finish.
  std::vector<PtxasDiagnostic> ptxasDiagnostics;
  // ptxas -v figures by mangled name, when ptxas accepted the PTX.
  std::map<std::string, PtxasFunction, std::less<>> functions;
  std::string error;             // Why a step did not run or finish (timeout, no PTX).
};

struct ExactResult {
  std::vector<ExactPass> passes;  // In request order.
  std::string error;              // Why nothing ran (nvcc or ptxas not found, no temporary directory).
};

struct ExactOptions {
  std::string nvcc;                      // Empty: findNvcc().
  std::string ptxas;                     // Empty: the ptxas beside nvcc, else findPtxas().
  std::filesystem::path workingDirectory;  // compile_commands.json's "directory"; empty: the current one.
  std::chrono::seconds timeout{60};      // For each nvcc and ptxas run.
};

// The flags of a compile command that matter to the PTX (include paths, macros, -std, host
// compiler options), without the compiler itself, the source file, the targets (-arch, -gencode,
// -code), the outputs (-o, -c, -ptx, -cubin, dependency files) and what would stop nvcc writing
// PTX (--dryrun).
std::vector<std::string> flagsForPtx(std::span<const std::string> arguments, const std::filesystem::path& cuFile,
                                     const std::filesystem::path& workingDirectory = {});

// Compiles `cuFile` (relative: to options.workingDirectory) once per pass, the passes in
// parallel, and assembles each PTX. `userFlags` may be a whole compile command: flagsForPtx
// filters it.
ExactResult compileForPasses(const std::filesystem::path& cuFile, std::span<const std::string> userFlags,
                             std::span<const NvccPassRequest> passes, const ExactOptions& options = {});

// Reads nvcc's diagnostics (exposed for tests); relative file names are resolved against `directory`.
std::vector<CompilerDiagnostic> parseNvccDiagnostics(std::string_view output, const std::filesystem::path& directory);

// Reads ptxas's errors and warnings (exposed for tests); its -v ("info") lines are skipped.
std::vector<PtxasDiagnostic> parsePtxasDiagnostics(std::string_view output);

}  // namespace ptx::oracle

// PtxasRunner: runs ptxas -v on a PTX text and reads back the registers it allocates per
// function, so that users can check the register estimate against the real assembler when they
// ask for it (`ptxlint --report registers --ptxas`).
//
// An edge library: it starts a process and writes a temporary file, which the core and the
// analyzers never do. ptxas is started with an argument vector (no shell), its output is read
// from a pipe, and it is killed when it runs past the timeout.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ptx::oracle {

// What ptxas -v printed for one function.
struct PtxasFunction {
  std::uint32_t registers = 0;     // "Used N registers".
  std::uint32_t spillStores = 0;   // "N bytes spill stores".
  std::uint32_t spillLoads = 0;    // "N bytes spill loads".
};

struct PtxasResult {
  bool ran = false;        // ptxas started and finished within the timeout.
  int exitCode = -1;
  std::string error;       // Why there are no figures: not found, timed out, rejected (its first error line).
  std::map<std::string, PtxasFunction, std::less<>> functions;  // By mangled name.
};

// The ptxas to run: $PTXAS, else $CUDA_HOME/bin/ptxas, else /usr/local/cuda/bin/ptxas, else the
// first `ptxas` on $PATH; nullopt when there is none.
std::optional<std::string> findPtxas();

// The -v figures of every function of `text`, assembled for `target` ("sm_90a"; a `compute_XX`
// or empty target is not assembled). `ptxas` is the executable to run.
PtxasResult runPtxas(const std::string& ptxas, std::string_view text, std::string_view target,
                     std::chrono::milliseconds timeout = std::chrono::seconds(60));

// Reads ptxas -v's report (exposed for tests).
std::map<std::string, PtxasFunction, std::less<>> parsePtxasReport(std::string_view output);

}  // namespace ptx::oracle

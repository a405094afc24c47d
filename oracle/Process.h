// Process: starts a CUDA tool (ptxas, nvcc) and collects what it prints, for the oracle runners.
//
// The oracle runs tools only when the user asked for them, so this is the one place that starts
// processes: with an argument vector (never a shell, so no file name or flag is ever
// interpreted), stdin from /dev/null, stdout and stderr read together through one pipe, and a
// timeout past which the tool and every process it started are killed.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ptx::oracle {

struct ProcessResult {
  bool started = false;   // The executable could be started.
  bool timedOut = false;  // It ran past the timeout and was killed.
  int exitCode = -1;      // Its exit status; -1 when it did not exit normally.
  std::string output;     // stdout and stderr, interleaved as written (at most kMaxProcessOutput bytes).
  std::string error;      // Why it could not be started.
};

// Output beyond this is read and dropped, so a tool printing without end cannot exhaust memory.
inline constexpr std::size_t kMaxProcessOutput = 16 * 1024 * 1024;

// Runs `argv[0]` with `argv`. The tool gets a process group of its own so that a timeout kills
// the processes it started too (nvcc runs cicc and ptxas). `workingDirectory`, when not empty, is
// the directory it runs in (a compile_commands.json entry's "directory").
ProcessResult runProcess(std::span<const std::string> argv, std::chrono::milliseconds timeout,
                         const std::filesystem::path& workingDirectory = {});

// A CUDA tool named `name`: $`variable` when it names an executable, else $CUDA_HOME/bin/name,
// else /usr/local/cuda/bin/name, else the first `name` on $PATH; nullopt when there is none.
std::optional<std::string> findCudaTool(std::string_view name, const char* variable);

// A fresh directory under $TMPDIR (or /tmp), removed with its contents when this goes out of
// scope; path() is empty when it could not be created.
class TemporaryDirectory {
 public:
  TemporaryDirectory();
  ~TemporaryDirectory();
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace ptx::oracle

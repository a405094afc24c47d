// Process: see Process.h.
#include "Process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <system_error>
#include <thread>
#include <vector>

extern char** environ;

namespace ptx::oracle {
namespace {

bool isExecutable(const std::string& path) { return !path.empty() && ::access(path.c_str(), X_OK) == 0; }

std::string temporaryRoot() {
  const char* dir = std::getenv("TMPDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/tmp";
}

}  // namespace

std::optional<std::string> findCudaTool(std::string_view name, const char* variable) {
  if (const char* explicitPath = std::getenv(variable); explicitPath != nullptr && isExecutable(explicitPath)) {
    return std::string(explicitPath);
  }
  std::string tail = "/bin/" + std::string(name);
  if (const char* cuda = std::getenv("CUDA_HOME"); cuda != nullptr && *cuda != '\0') {
    std::string candidate = std::string(cuda) + tail;
    if (isExecutable(candidate)) return candidate;
  }
  if (std::string candidate = "/usr/local/cuda" + tail; isExecutable(candidate)) return candidate;
  if (const char* path = std::getenv("PATH")) {
    std::string_view rest = path;
    while (!rest.empty()) {
      std::size_t colon = rest.find(':');
      std::string_view dir = rest.substr(0, colon);
      std::string candidate = std::string(dir.empty() ? "." : dir) + "/" + std::string(name);
      if (isExecutable(candidate)) return candidate;
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
  }
  return std::nullopt;
}

ProcessResult runProcess(std::span<const std::string> argv, std::chrono::milliseconds timeout,
                         const std::filesystem::path& workingDirectory) {
  ProcessResult result;
  if (argv.empty()) {
    result.error = "no program to run";
    return result;
  }
  int pipeEnds[2];
  if (::pipe2(pipeEnds, O_CLOEXEC) != 0) {
    result.error = "cannot create a pipe for " + argv[0];
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  if (!workingDirectory.empty()) posix_spawn_file_actions_addchdir_np(&actions, workingDirectory.c_str());
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  // A group of its own: killing the group at the timeout also ends what the tool started.
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  std::vector<std::string> args(argv.begin(), argv.end());
  std::vector<char*> pointers;
  for (std::string& arg : args) pointers.push_back(arg.data());
  pointers.push_back(nullptr);
  pid_t pid = -1;
  int spawned = ::posix_spawn(&pid, args[0].c_str(), &actions, &attributes, pointers.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipeEnds[1]);
  if (spawned != 0) {
    ::close(pipeEnds[0]);
    result.error = "cannot run " + args[0] + ": " + std::strerror(spawned);
    return result;
  }
  result.started = true;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  char buffer[4096];
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timedOut = true;
      break;
    }
    pollfd wanted{pipeEnds[0], POLLIN, 0};
    int ready = ::poll(&wanted, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    ssize_t n = ::read(pipeEnds[0], buffer, sizeof buffer);
    if (n <= 0) break;  // End of output: every writer closed its side.
    std::size_t keep = std::min(static_cast<std::size_t>(n), kMaxProcessOutput - std::min(kMaxProcessOutput, result.output.size()));
    result.output.append(buffer, keep);
  }
  ::close(pipeEnds[0]);
  // A tool can close its output and keep running: the deadline holds until it exits.
  int status = 0;
  bool reaped = false;
  auto pause = std::chrono::microseconds(200);
  while (!result.timedOut) {
    pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      reaped = true;
      break;
    }
    if (done < 0 && errno != EINTR) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      result.timedOut = true;
      break;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min<std::chrono::microseconds>(pause * 2, std::chrono::milliseconds(20));
  }
  if (result.timedOut) {
    ::kill(-pid, SIGKILL);
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return result;
  }
  if (reaped && WIFEXITED(status)) result.exitCode = WEXITSTATUS(status);
  return result;
}

TemporaryDirectory::TemporaryDirectory() {
  std::string pattern = temporaryRoot() + "/ptxls-nvcc-XXXXXX";
  if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
}

TemporaryDirectory::~TemporaryDirectory() {
  if (path_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace ptx::oracle

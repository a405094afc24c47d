#include "PtxasRunner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <vector>

extern char** environ;

namespace ptx::oracle {
namespace {

bool isExecutable(const std::string& path) { return !path.empty() && ::access(path.c_str(), X_OK) == 0; }

// The number just before `suffix` in `line` ("Used 40 registers" → 40 for " registers").
std::optional<std::uint32_t> numberBefore(std::string_view line, std::string_view suffix) {
  std::size_t at = line.find(suffix);
  if (at == std::string_view::npos) return std::nullopt;
  std::size_t begin = at;
  while (begin > 0 && line[begin - 1] >= '0' && line[begin - 1] <= '9') --begin;
  std::uint32_t value = 0;
  auto [end, error] = std::from_chars(line.data() + begin, line.data() + at, value);
  if (error != std::errc() || end != line.data() + at) return std::nullopt;
  return value;
}

// A temporary file holding `text`, removed when this goes out of scope.
class TemporaryPtx {
 public:
  explicit TemporaryPtx(std::string_view text) {
    const char* dir = std::getenv("TMPDIR");
    path_ = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/ptxls-ptxas-XXXXXX.ptx";
    int fd = ::mkstemps(path_.data(), 4);
    if (fd < 0) {
      path_.clear();
      return;
    }
    std::size_t written = 0;
    while (written < text.size()) {
      ssize_t n = ::write(fd, text.data() + written, text.size() - written);
      if (n <= 0) break;
      written += static_cast<std::size_t>(n);
    }
    ::close(fd);
    if (written != text.size()) {
      ::unlink(path_.c_str());
      path_.clear();
    }
  }
  ~TemporaryPtx() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  TemporaryPtx(const TemporaryPtx&) = delete;
  TemporaryPtx& operator=(const TemporaryPtx&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

std::optional<std::string> findPtxas() {
  if (const char* explicitPath = std::getenv("PTXAS"); explicitPath != nullptr && isExecutable(explicitPath)) {
    return std::string(explicitPath);
  }
  if (const char* cuda = std::getenv("CUDA_HOME"); cuda != nullptr && *cuda != '\0') {
    std::string candidate = std::string(cuda) + "/bin/ptxas";
    if (isExecutable(candidate)) return candidate;
  }
  if (isExecutable("/usr/local/cuda/bin/ptxas")) return std::string("/usr/local/cuda/bin/ptxas");
  if (const char* path = std::getenv("PATH")) {
    std::string_view rest = path;
    while (!rest.empty()) {
      std::size_t colon = rest.find(':');
      std::string_view dir = rest.substr(0, colon);
      std::string candidate = std::string(dir.empty() ? "." : dir) + "/ptxas";
      if (isExecutable(candidate)) return candidate;
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
  }
  return std::nullopt;
}

std::map<std::string, PtxasFunction, std::less<>> parsePtxasReport(std::string_view output) {
  std::map<std::string, PtxasFunction, std::less<>> functions;
  std::string current;
  while (!output.empty()) {
    std::size_t newline = output.find('\n');
    std::string_view line = output.substr(0, newline);
    output = newline == std::string_view::npos ? std::string_view() : output.substr(newline + 1);
    // "ptxas info    : Function properties for NAME"
    if (std::size_t at = line.find("Function properties for "); at != std::string_view::npos) {
      current = std::string(line.substr(at + std::strlen("Function properties for ")));
      while (!current.empty() && (current.back() == '\r' || current.back() == ' ')) current.pop_back();
      functions[current];
      continue;
    }
    if (current.empty()) continue;
    PtxasFunction& function = functions[current];
    if (auto stores = numberBefore(line, " bytes spill stores")) function.spillStores = *stores;
    if (auto loads = numberBefore(line, " bytes spill loads")) function.spillLoads = *loads;
    if (line.find("Used ") != std::string_view::npos) {
      if (auto used = numberBefore(line, " registers")) function.registers = *used;
    }
  }
  return functions;
}

PtxasResult runPtxas(const std::string& ptxas, std::string_view text, std::string_view target,
                     std::chrono::milliseconds timeout) {
  PtxasResult result;
  if (!target.starts_with("sm_")) {
    result.error = target.empty() ? "the module names no sm_XX target to assemble for"
                                  : "ptxas assembles for sm_XX targets, not " + std::string(target);
    return result;
  }
  TemporaryPtx file(text);
  if (file.path().empty()) {
    result.error = "cannot write a temporary file for ptxas";
    return result;
  }
  int pipeEnds[2];
  if (::pipe(pipeEnds) != 0) {
    result.error = "cannot create a pipe for ptxas";
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipeEnds[0]);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::string gpu(target);
  std::vector<std::string> args = {ptxas, "-v", "--gpu-name", gpu, "-o", "/dev/null", file.path()};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  int spawned = ::posix_spawn(&pid, ptxas.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipeEnds[1]);
  if (spawned != 0) {
    ::close(pipeEnds[0]);
    result.error = "cannot run " + ptxas + ": " + std::strerror(spawned);
    return result;
  }
  std::string output;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  bool timedOut = false;
  char buffer[4096];
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timedOut = true;
      break;
    }
    pollfd wanted{pipeEnds[0], POLLIN, 0};
    int ready = ::poll(&wanted, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    ssize_t n = ::read(pipeEnds[0], buffer, sizeof buffer);
    if (n <= 0) break;  // End of output: ptxas closed its side.
    output.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(pipeEnds[0]);
  if (timedOut) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timedOut) {
    result.error = "ptxas ran past " + std::to_string(timeout.count() / 1000) + " s and was stopped";
    return result;
  }
  result.ran = true;
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (result.exitCode != 0) {
    // Its first error line, without the temporary file's name.
    std::size_t at = output.find("error");
    std::size_t lineStart = at == std::string::npos ? 0 : output.rfind('\n', at);
    lineStart = lineStart == std::string::npos ? 0 : lineStart + 1;
    std::size_t lineEnd = output.find('\n', lineStart);
    result.error = "ptxas rejected the file: " + output.substr(lineStart, lineEnd - lineStart);
    if (std::size_t name = result.error.find(file.path()); name != std::string::npos) {
      result.error.replace(name, file.path().size(), "<input>");
    }
    return result;
  }
  result.functions = parsePtxasReport(output);
  return result;
}

}  // namespace ptx::oracle

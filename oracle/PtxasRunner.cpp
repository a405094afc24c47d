#include "PtxasRunner.h"

#include <stdlib.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "Process.h"

namespace ptx::oracle {
namespace {

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

std::optional<std::string> findPtxas() { return findCudaTool("ptxas", "PTXAS"); }

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
  std::vector<std::string> args = {ptxas, "-v", "--gpu-name", std::string(target), "-o", "/dev/null", file.path()};
  ProcessResult run = runProcess(args, timeout);
  if (!run.started) {
    result.error = run.error;
    return result;
  }
  if (run.timedOut) {
    result.error = "ptxas ran past " + std::to_string(timeout.count() / 1000) + " s and was stopped";
    return result;
  }
  const std::string& output = run.output;
  result.ran = true;
  result.exitCode = run.exitCode;
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

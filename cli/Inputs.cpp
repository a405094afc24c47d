// Inputs: PATH arguments → files to lint; reading one file as PTX text.
#include "Inputs.h"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <system_error>

#include "CudaFiles.h"

namespace fs = std::filesystem;

namespace ptx::cli {
namespace {

bool isGlob(std::string_view path) { return path.find_first_of("*?[") != std::string_view::npos; }

}  // namespace

// Matches `text` (a '/'-separated relative path) against a glob: '*' and '?' stay within one
// path component, '[abc]'/'[a-z]'/'[!a]' are character classes, '**' crosses directories
// ('**/' also matches no directory at all).
bool globMatch(std::string_view pattern, std::string_view text) {
  if (pattern.empty()) return text.empty();
  if (pattern.starts_with("**")) {
    std::string_view rest = pattern.substr(2);
    bool slash = rest.starts_with("/");
    if (slash && globMatch(rest.substr(1), text)) return true;  // "**/" as no directory.
    for (std::size_t i = 0; i <= text.size(); ++i) {
      if (globMatch(rest, text.substr(i))) return true;
    }
    return false;
  }
  char p = pattern.front();
  if (p == '*') {
    for (std::size_t i = 0; i <= text.size(); ++i) {
      if (globMatch(pattern.substr(1), text.substr(i))) return true;
      if (i < text.size() && text[i] == '/') break;
    }
    return false;
  }
  if (text.empty()) return false;
  if (p == '?') return text.front() != '/' && globMatch(pattern.substr(1), text.substr(1));
  if (p == '[') {
    std::size_t close = pattern.find(']', 2);
    if (close != std::string_view::npos) {
      std::string_view set = pattern.substr(1, close - 1);
      bool negate = set.starts_with("!") || set.starts_with("^");
      if (negate) set.remove_prefix(1);
      bool in = false;
      for (std::size_t i = 0; i < set.size(); ++i) {
        if (i + 2 < set.size() && set[i + 1] == '-') {
          in = in || (text.front() >= set[i] && text.front() <= set[i + 2]);
          i += 2;
        } else {
          in = in || text.front() == set[i];
        }
      }
      return in != negate && text.front() != '/' && globMatch(pattern.substr(close + 1), text.substr(1));
    }
  }
  return p == text.front() && globMatch(pattern.substr(1), text.substr(1));
}

namespace {

// Whether a directory walk takes `entry`: a regular file named *.ptx (a file extension, not a
// PTX spelling), or a CUDA source (cli::isCudaFileForWalk).
bool isPtxFile(const fs::directory_entry& entry) {
  std::error_code ignored;
  return entry.is_regular_file(ignored) && (entry.path().extension() == ".ptx" || cli::isCudaFileForWalk(entry.path()));
}

// The *.ptx files under `directory`, sorted, skipping hidden directories. `error` is set when
// the directory could not be read.
std::vector<std::string> ptxFilesUnder(const fs::path& directory, std::string& problem) {
  std::vector<std::string> found;
  std::error_code error;
  fs::recursive_directory_iterator it(directory, fs::directory_options::skip_permission_denied, error);
  for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    const fs::directory_entry& entry = *it;
    std::string name = entry.path().filename().string();
    std::error_code ignored;
    if (entry.is_directory(ignored) && name.starts_with(".") && name != "." && name != "..") {
      it.disable_recursion_pending();
      continue;
    }
    if (isPtxFile(entry)) {
      found.push_back(entry.path().generic_string());
    }
  }
  if (error) problem = "cannot read directory: " + error.message();
  std::sort(found.begin(), found.end());
  return found;
}

// The PTX files a glob names: the walk starts at the pattern's longest literal directory
// prefix; matched directories are searched for *.ptx like directory arguments.
std::vector<std::string> expandGlob(const std::string& pattern, std::string& problem) {
  std::string generic = fs::path(pattern).generic_string();
  std::size_t firstGlob = generic.find_first_of("*?[");
  std::size_t slash = generic.rfind('/', firstGlob);
  std::string base = slash == std::string::npos ? std::string() : generic.substr(0, slash + 1);
  std::string rest = generic.substr(base.size());
  fs::path root = base.empty() ? fs::path(".") : fs::path(base);
  std::error_code error;
  if (!fs::is_directory(root, error)) {
    problem = "no such directory '" + (base.empty() ? std::string(".") : base) + "' for the pattern";
    return {};
  }
  std::set<std::string> found;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, error);
  for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    const fs::directory_entry& entry = *it;
    std::string name = entry.path().filename().string();
    std::error_code ignored;
    bool directory = entry.is_directory(ignored);
    if (directory && name.starts_with(".")) {
      it.disable_recursion_pending();
      continue;
    }
    std::string relative = entry.path().lexically_relative(root).generic_string();
    if (!globMatch(rest, relative)) continue;
    std::string shown = base + relative;
    if (directory) {
      std::string ignoredProblem;
      for (std::string& file : ptxFilesUnder(entry.path(), ignoredProblem)) {
        found.insert(base + fs::path(file).lexically_relative(root).generic_string());
      }
      it.disable_recursion_pending();
    } else if (isPtxFile(entry)) {
      found.insert(shown);
    }
  }
  if (error) problem = "cannot read directory: " + error.message();
  else if (found.empty()) problem = "no PTX or CUDA files match this pattern";
  return {found.begin(), found.end()};
}

}  // namespace

// Expands directories into their *.ptx files and globs into the PTX files they match, sorted;
// keeps explicit files as given. Paths that yield nothing become inputs with an error.
std::vector<Input> collectInputs(const std::vector<std::string>& paths) {
  std::vector<Input> inputs;
  for (const std::string& path : paths) {
    if (path == "-") {
      inputs.push_back({path, {}});
      continue;
    }
    std::error_code error;
    auto status = fs::status(path, error);
    if (error || !fs::exists(status)) {
      if (isGlob(path)) {
        std::string problem;
        std::vector<std::string> files = expandGlob(path, problem);
        if (!problem.empty()) inputs.push_back({path, problem});
        for (std::string& file : files) inputs.push_back({std::move(file), {}});
        continue;
      }
      if (fs::is_symlink(fs::symlink_status(path, error))) {
        inputs.push_back({path, "broken symbolic link"});
      } else if (error && error != std::errc::no_such_file_or_directory) {
        inputs.push_back({path, "cannot access: " + error.message()});
      } else {
        inputs.push_back({path, "no such file or directory"});
      }
      continue;
    }
    if (!fs::is_directory(status)) {
      inputs.push_back({path, {}});
      continue;
    }
    std::string problem;
    std::vector<std::string> found = ptxFilesUnder(path, problem);
    if (!problem.empty()) {
      inputs.push_back({path, problem});
    } else if (found.empty()) {
      inputs.push_back({path, "directory contains no PTX or CUDA files (*.ptx, *.cu, *.cuh, headers with asm)"});
    }
    for (std::string& file : found) inputs.push_back({std::move(file), {}});
  }
  return inputs;
}

bool readPtxText(const std::string& path, std::string& text, std::string& error) {
  if (path == "-") {
    std::ostringstream buffer;
    buffer << std::cin.rdbuf();
    text = std::move(buffer).str();
  } else {
    std::error_code status;
    if (fs::is_directory(path, status)) {
      error = "is a directory";
      return false;
    }
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      int code = errno;
      std::error_code exists;
      if (!fs::exists(path, exists)) {
        error = "no such file or directory (removed while ptxlint ran?)";
      } else {
        error = "cannot open file" +
                (code != 0 ? ": " + std::error_code(code, std::generic_category()).message() : std::string());
      }
      return false;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) {
      error = "read error";
      return false;
    }
    text = std::move(buffer).str();
  }
  return true;
}

bool holdsNoPtx(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
      ++i;
    } else if (text.compare(i, 2, "//") == 0) {
      std::size_t newline = text.find('\n', i);
      i = newline == std::string_view::npos ? text.size() : newline;
    } else if (text.compare(i, 2, "/*") == 0) {
      std::size_t close = text.find("*/", i + 2);
      if (close == std::string_view::npos) return false;  // An unterminated comment: SYN001 says so.
      i = close + 2;
    } else {
      return false;
    }
  }
  return true;
}

std::optional<Diagnostic> noPtxDiagnostic(std::string_view text, const LintOptions& options) {
  if (!holdsNoPtx(text)) return std::nullopt;
  Diagnostic diagnostic;
  diagnostic.rule = "SEM005";
  diagnostic.severity = Severity::Error;
  diagnostic.category = Category::Semantic;
  diagnostic.range = {0, 0};
  diagnostic.message = text.empty() ? "empty file: a PTX module must start with '.version'; ptxas rejects it "
                                      "(\"Missing .version directive at start of file\")"
                                    : "the file holds no PTX, only comments and blank lines: a PTX module must "
                                      "start with '.version'; ptxas rejects it (\"Missing .version directive at "
                                      "start of file\")";
  std::vector<Diagnostic> found{std::move(diagnostic)};
  applyRuleSettings(found, options);
  if (found.empty()) return std::nullopt;
  return std::move(found.front());
}


}  // namespace ptx::cli

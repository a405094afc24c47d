// TestSupport implementation.
#include "TestSupport.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "Lint.h"
#include "text/LineIndex.h"

namespace ptx::test {

std::filesystem::path sourceDir() { return PTXLS_SOURCE_DIR; }

std::optional<std::filesystem::path> sharedDir() {
  std::filesystem::path shared = PTXLS_SHARED_DIR;
  if (const char* env = std::getenv("PTXLS_SHARED_DIR")) shared = env;
  std::error_code error;
  if (!std::filesystem::is_directory(shared / "corpus", error)) return std::nullopt;
  return shared;
}

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return std::move(buffer).str();
}

int runCommand(const std::string& command, std::string& output) {
  output.clear();
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return -1;
  char buffer[1 << 16];
  std::size_t read = 0;
  while ((read = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, read);
  int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string readMaybeCompressed(const std::filesystem::path& path) {
  if (path.extension() != ".xz") return readFile(path);
  std::string output;
  runCommand("xz -dc '" + path.string() + "'", output);
  return output;
}

std::vector<Diagnostic> lint(std::string_view text) { return lintText(text).diagnostics; }

std::string describe(std::string_view text, const std::vector<Diagnostic>& diagnostics) {
  LineIndex index(text);
  std::string out;
  for (const Diagnostic& d : diagnostics) {
    out += std::to_string(index.lineOf(d.range.begin) + 1) + ":" + d.rule + ": " + d.message + "\n";
  }
  return out;
}

std::string kernel(std::string_view body) {
  return ".version 8.0\n.target sm_80\n.address_size 64\n\n.visible .entry k()\n{\n" +
         std::string(body) + "\n}\n";
}

std::string rangeText(ByteRange r) {
  std::string out = "[";
  out += std::to_string(r.begin);
  out += ',';
  out += std::to_string(r.end);
  out += ')';
  return out;
}

// (Appended piece by piece: GCC 12 warns, falsely, on `"literal" + std::string`.)
std::string describeEveryField(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) {
    out += d.rule;
    out += ' ';
    out += toString(d.severity);
    out += ' ';
    out += std::to_string(static_cast<int>(d.category));
    out += ' ';
    out += rangeText(d.range);
    out += ' ';
    out += d.message;
    for (const RelatedInformation& r : d.related) {
      out += " {";
      out += rangeText(r.range);
      out += ' ';
      out += r.message;
      out += '}';
    }
    for (const Fix& fix : d.fixes) {
      out += " fix '";
      out += fix.title;
      out += fix.isPreferred ? "'*" : "'";
      for (const FixEdit& e : fix.edits) {
        out += ' ';
        out += rangeText(e.range);
        out += "='";
        out += e.newText;
        out += '\'';
      }
    }
    out += '\n';
  }
  return out;
}

std::vector<std::filesystem::path> corpusPtxFiles(const std::vector<std::string>& projectFolders) {
  std::vector<std::filesystem::path> files;
  auto collect = [&](const std::filesystem::path& root) {
    if (!std::filesystem::is_directory(root)) return;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      std::string name = entry.path().filename().string();
      if (entry.is_regular_file() && (name.ends_with(".ptx") || name.ends_with(".ptx.xz"))) files.push_back(entry.path());
    }
  };
  if (auto shared = sharedDir()) collect(*shared / "corpus");
  for (const std::string& folder : projectFolders) collect(sourceDir() / folder);
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace ptx::test

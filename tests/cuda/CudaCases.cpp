// CudaCases: the `.cu` case conventions (tests/cuda/README.md).
#include "CudaCases.h"

#include <algorithm>
#include <regex>
#include <sstream>

#include "CompileCommands.h"

namespace ptx::test {

std::vector<ExpectedFinding> expectedCudaFindings(const std::string& text) {
  std::vector<ExpectedFinding> expected;
  static const std::regex marker(R"re(// expect: ([A-Z]{3}[0-9]{3})(?: at "(.*)")?\s*$)re");
  std::istringstream lines(text);
  std::string line;
  for (std::uint32_t number = 1; std::getline(lines, line); ++number) {
    std::smatch match;
    if (!std::regex_search(line, match, marker)) continue;
    ExpectedFinding finding{number, match[1].str(), std::nullopt};
    if (match[2].matched) {
      std::size_t at = line.find(match[2].str());
      if (at != std::string::npos && at < static_cast<std::size_t>(match.position(0))) finding.column = static_cast<std::uint32_t>(at + 1);
    }
    expected.push_back(std::move(finding));
  }
  return expected;
}

std::vector<cuda::DevicePass> passesOfCase(const std::string& text) {
  config::CompileCommand command;
  command.directory = "/";
  command.file = "/case.cu";
  command.arguments = {"nvcc"};
  std::size_t at = text.find("// nvcc-flags:");
  if (at != std::string::npos) {
    std::size_t end = text.find('\n', at);
    std::istringstream flags(text.substr(at + 14, end - at - 14));
    for (std::string flag; flags >> flag;) command.arguments.push_back(flag);
  } else {
    command.arguments.push_back("-arch=sm_80");
  }
  command.arguments.push_back("/case.cu");
  return config::readNvccCommand(command).passes;
}

CudaLintResult lintCudaCase(const std::string& text, const std::vector<std::string>& enable) {
  CudaLintOptions options;
  options.passes = passesOfCase(text);
  for (const std::string& code : enable) options.lint.rules[code].enabled = true;
  return lintCudaText(text, options);
}

std::vector<std::filesystem::path> cudaFilesIn(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(folder)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    if (entry.path().extension() == ".cu") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace ptx::test

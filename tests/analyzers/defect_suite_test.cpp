// The defect suite (tests/analyzers/defects/, see its README): every violating case is found
// on the marked lines, and the conforming twins stay silent.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "Lint.h"
#include "Registry.h"
#include "TestSupport.h"
#include "text/LineIndex.h"

using namespace ptx;
namespace fs = std::filesystem;

namespace {

bool isDataflowCategory(Category category) {
  return category == Category::Abi || category == Category::CallSequence || category == Category::Alignment ||
         category == Category::Swizzle || category == Category::Performance;
}

// (1-based line, code) pairs marked with `// expect: CODE[, CODE]`.
std::set<std::pair<std::uint32_t, std::string>> expectedFindings(const std::string& text) {
  std::set<std::pair<std::uint32_t, std::string>> expected;
  std::istringstream lines(text);
  std::string line;
  for (std::uint32_t number = 1; std::getline(lines, line); ++number) {
    std::size_t marker = line.find("// expect:");
    if (marker == std::string::npos) continue;
    std::string codes = line.substr(marker + 10);
    for (char& c : codes) {
      if (c == ',') c = ' ';
    }
    std::istringstream words(codes);
    for (std::string code; words >> code;) expected.insert({number, code});
  }
  return expected;
}

}  // namespace

TEST_CASE("The defect suite: violations found on their lines, twins silent", "[analyzers][defects]") {
  fs::path root = test::sourceDir() / "tests" / "analyzers" / "defects";
  REQUIRE(fs::is_directory(root));
  std::map<std::string, int> violating;
  std::map<std::string, int> twins;
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.path().extension() == ".ptx") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& path : files) {
    std::string text = test::readFile(path);
    std::string folder = path.parent_path().filename().string();
    bool twin = path.filename().string().starts_with("ok_");
    LintOptions options;
    options.rules["PRF002"].enabled = true;  // Opt-in: the suite checks it like the others.
    LintResult result = lintText(text, options);
    LineIndex lines(text);
    std::set<std::pair<std::uint32_t, std::string>> found;
    std::vector<Diagnostic> otherErrors;
    for (const Diagnostic& diagnostic : result.diagnostics) {
      if (isDataflowCategory(diagnostic.category)) {
        found.insert({lines.lineOf(diagnostic.range.begin) + 1, diagnostic.rule});
      } else if (diagnostic.severity == Severity::Error) {
        otherErrors.push_back(diagnostic);
      }
    }
    auto expected = expectedFindings(text);
    INFO(path.string() << "\n" << test::describe(text, result.diagnostics));
    CHECK(found == expected);
    CHECK(otherErrors.empty());
    if (twin) {
      CHECK(expected.empty());
      ++twins[folder];
    } else {
      bool marksOwnRule = std::any_of(expected.begin(), expected.end(), [&](const auto& e) { return e.second == folder; });
      CHECK(marksOwnRule);
      ++violating[folder];
    }
  }
  // Every rule of these families has its cases.
  for (const RuleMeta& rule : allRules()) {
    if (!isDataflowCategory(rule.category)) continue;
    INFO("rule " << rule.code);
    CHECK(violating[std::string(rule.code)] >= 3);
    CHECK(twins[std::string(rule.code)] >= 1);
  }
}

// One test per rule of Rules.def, tagged with its code, over the rule's cases in
// tests/rules/<CODE>/ (tests/rules/README.md): every violating case gets exactly the findings
// its `// expect: CODE` markers ask for, on their lines, and every fixed twin (ok_*.ptx) none;
// a case the folder's ptxas.json lists as rejected by ptxas gets an error on ptxas's line.
// Run one rule's tests with `build/tests/ptxls_tests "[ALN002]"` or `scripts/test.sh -R ALN002`.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

#include "Lint.h"
#include "CudaCases.h"
#include "RuleContext.h"
#include "TestSupport.h"
#include "text/LineIndex.h"

using namespace ptx;
namespace fs = std::filesystem;

namespace {

// The rules whose evidence is not a folder of tests/rules, and where it is instead: the syntax
// rules have ptxas-verified cases of their own (tests/syntax_cases), the rest unit tests.
constexpr std::pair<std::string_view, std::string_view> kEvidenceElsewhere[] = {
    // The inline-asm rules' cases are the acceptance suite of seeded defects (tests/cuda/README.md).
    {"ASM001", "tests/cuda/cases"},
    {"ASM002", "tests/cuda/cases"},
    {"ASM003", "tests/cuda/cases"},
    {"ASM004", "tests/cuda/cases"},
    {"ASM005", "tests/cuda/cases"},
    {"ASM006", "tests/cuda/cases"},
    {"ASM007", "tests/cuda/cases"},
    {"ASM008", "tests/cuda/cases"},
    {"ASM009", "tests/cuda/cases"},
    {"ASM010", "tests/cuda/cases"},
    {"ASM013", "tests/cuda/cases"},
    // Exact mode's codes come from nvcc and ptxas themselves.
    {"NVC001", "tests/cuda/check_exact_mode.py"},
    {"NVC002", "tests/cuda/check_exact_mode.py"},
    {"LNT001", "tests/analyzers/suppressions_test.cpp"},
    {"SYN001", "tests/syntax_cases/rejected"},
    {"SYN002", "tests/syntax_cases/rejected"},
    {"SYN003", "tests/syntax_cases/rejected"},
    {"SYN004", "tests/syntax_cases/rejected"},
    {"SYN005", "tests/syntax_cases/rejected"},
    {"SYN006", "tests/robustness/bad_input_test.cpp"},
    {"SYN007", "tests/robustness/bad_input_test.cpp"},
    {"SYN008", "tests/syntax_cases/rejected"},
};

using Findings = std::set<std::pair<std::uint32_t, std::string>>;  // (1-based line, code)

// The findings marked with `// expect: CODE[, CODE]` at the end of their lines.
Findings expectedFindings(const std::string& text) {
  Findings expected;
  std::istringstream lines(text);
  std::string line;
  for (std::uint32_t number = 1; std::getline(lines, line); ++number) {
    std::size_t marker = line.find("// expect:");
    if (marker == std::string::npos) continue;
    std::string codes = line.substr(marker + 10);
    std::replace(codes.begin(), codes.end(), ',', ' ');
    std::istringstream words(codes);
    for (std::string code; words >> code;) expected.insert({number, code});
  }
  return expected;
}

std::vector<fs::path> ptxFilesIn(const fs::path& folder) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() == ".ptx") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// A rule listed in kEvidenceElsewhere: a folder of PTX cases must produce its code at least
// once; a test source must name it.
void checkEvidenceElsewhere(std::string_view code, const fs::path& evidence) {
  INFO(code << "'s evidence: " << evidence.string());
  CHECK_FALSE(fs::exists(test::sourceDir() / "tests" / "rules" / std::string(code)));  // Else drop the entry.
  if (fs::is_directory(evidence)) {
    bool found = false;
    for (const fs::path& path : ptxFilesIn(evidence)) {
      for (const Diagnostic& diagnostic : test::lint(test::readFile(path))) found = found || diagnostic.rule == code;
    }
    // A folder of .cu cases: the cases marked with the code get it, their twins do not.
    for (const fs::path& path : test::cudaFilesIn(evidence)) {
      std::string text = test::readFile(path);
      std::vector<test::ExpectedFinding> expected = test::expectedCudaFindings(text);
      bool marked = std::any_of(expected.begin(), expected.end(), [&](const auto& e) { return e.code == code; });
      bool twin = path.filename().string().starts_with("ok_") &&
                  fs::exists(evidence / path.filename().string().substr(3)) &&
                  test::readFile(evidence / path.filename().string().substr(3)).find(concat({"expect: ", code})) != std::string::npos;
      if (!marked && !twin) continue;
      bool reported = false;
      for (const Diagnostic& diagnostic : test::lintCudaCase(text).diagnostics) reported = reported || diagnostic.rule == code;
      INFO(path.string());
      CHECK(reported == marked);
      found = found || (marked && reported);
    }
    CHECK(found);
  } else {
    REQUIRE(fs::is_regular_file(evidence));
    CHECK(test::readFile(evidence).find(code) != std::string::npos);
  }
}

void checkRuleCases(std::string_view code) {
  for (const auto& [rule, evidence] : kEvidenceElsewhere) {
    if (rule == code) return checkEvidenceElsewhere(code, test::sourceDir() / evidence);
  }
  fs::path folder = test::sourceDir() / "tests" / "rules" / std::string(code);
  INFO("the cases of " << code << " belong in tests/rules/" << code << "/ (tests/rules/README.md)");
  REQUIRE(fs::is_directory(folder));
  nlohmann::json rejectedByPtxas = nlohmann::json::object();
  if (fs::exists(folder / "ptxas.json")) {
    rejectedByPtxas = nlohmann::json::parse(test::readFile(folder / "ptxas.json"))["cases"];
  }
  for (const auto& listed : rejectedByPtxas.items()) {
    INFO("ptxas.json lists " << listed.key());
    CHECK(fs::is_regular_file(folder / listed.key()));
  }
  int violating = 0;
  int twins = 0;
  // .cu cases (rules about CUDA sources): the markers of tests/cuda/README.md.
  for (const fs::path& path : test::cudaFilesIn(folder)) {
    std::string text = test::readFile(path);
    CudaLintResult result = test::lintCudaCase(text, {std::string(code)});
    LineIndex lines(text);
    Findings found;
    for (const Diagnostic& diagnostic : result.diagnostics) found.insert({lines.lineOf(diagnostic.range.begin) + 1, diagnostic.rule});
    Findings expected;
    for (const test::ExpectedFinding& finding : test::expectedCudaFindings(text)) expected.insert({finding.line, finding.code});
    INFO(path.string() << "\n" << test::describe(text, result.diagnostics));
    CHECK(found == expected);
    if (path.filename().string().starts_with("ok_")) {
      ++twins;
    } else {
      CHECK(std::any_of(expected.begin(), expected.end(), [&](const auto& finding) { return finding.second == code; }));
      ++violating;
    }
  }
  for (const fs::path& path : ptxFilesIn(folder)) {
    std::string text = test::readFile(path);
    LintOptions options;
    options.rules[std::string(code)].enabled = true;  // An opt-in rule is checked like the others.
    LintResult result = lintText(text, options);
    LineIndex lines(text);
    Findings found;
    for (const Diagnostic& diagnostic : result.diagnostics) {
      found.insert({lines.lineOf(diagnostic.range.begin) + 1, diagnostic.rule});
    }
    Findings expected = expectedFindings(text);
    INFO(path.string() << "\n" << test::describe(text, result.diagnostics));
    CHECK(found == expected);
    if (path.filename().string().starts_with("ok_")) {
      CHECK(expected.empty());
      ++twins;
    } else {
      CHECK(std::any_of(expected.begin(), expected.end(), [&](const auto& finding) { return finding.second == code; }));
      ++violating;
    }
    std::string name = path.filename().string();
    if (rejectedByPtxas.contains(name)) {
      // ptxas's line lies within the range of an error of this rule.
      const nlohmann::json& verdict = rejectedByPtxas[name];
      auto ptxasLine = verdict["line"].get<std::uint32_t>();
      INFO("ptxas rejects it on line " << ptxasLine << ": " << verdict["ptxas_message"].get<std::string>());
      CHECK(std::any_of(result.diagnostics.begin(), result.diagnostics.end(), [&](const Diagnostic& diagnostic) {
        std::uint32_t first = lines.lineOf(diagnostic.range.begin) + 1;
        std::uint32_t last = lines.lineOf(diagnostic.range.end) + 1;
        return diagnostic.rule == code && diagnostic.severity == Severity::Error && first <= ptxasLine &&
               ptxasLine <= last;
      }));
    }
  }
  CHECK(violating >= 1);
  CHECK(twins >= 1);
}

}  // namespace

#define PTX_RULE(code, name, category, severity, check, reads, when, summary) \
  TEST_CASE(#code " " name ": the cases of tests/rules/" #code, "[rules][" #code "]") { checkRuleCases(#code); }
#define PTX_RULE_WITHOUT_CHECK(code, name, category, severity, summary)                                     \
  TEST_CASE(#code " " name ": the cases of tests/rules/" #code " or its evidence elsewhere", "[rules][" #code "]") { \
    checkRuleCases(#code);                                                                                    \
  }
#include "Rules.def"

// The acceptance suite of seeded inline-asm defects (tests/cuda/cases, tests/cuda/README.md):
// every case's marked finding is reported on its line — at the marked characters for at least
// 90% of them — with nothing else at warning or error severity, and every fixed twin is silent.
// nvcc's and ptxas's verdicts for each file are in tests/cuda/cases/ground-truth.json
// (re-checked by CTest cuda.suite_ground_truth where nvcc is installed).
#include <catch2/catch.hpp>

#include <map>

#include "CudaCases.h"
#include "TestSupport.h"
#include "text/LineIndex.h"

using namespace ptx;

namespace {

struct Reported {
  std::uint32_t line;
  std::uint32_t column;
  std::string code;
};

std::vector<Reported> reported(const std::string& text, const std::vector<Diagnostic>& diagnostics) {
  LineIndex lines(text);
  std::vector<Reported> out;
  for (const Diagnostic& diagnostic : diagnostics) {
    if (diagnostic.severity > Severity::Warning) continue;
    LineColumn position = lines.byteColumn(diagnostic.range.begin);
    out.push_back({position.line + 1, position.column + 1, diagnostic.rule});
  }
  return out;
}

}  // namespace

TEST_CASE("inline-asm suite: seeded defects found at their characters, twins silent", "[cuda][suite]") {
  auto folder = test::sourceDir() / "tests" / "cuda" / "cases";
  std::vector<std::filesystem::path> files = test::cudaFilesIn(folder);
  std::size_t defects = 0, expectedTotal = 0, foundOnLine = 0, exact = 0;
  std::map<std::string, int> casesPerCode;
  for (const auto& path : files) {
    std::string text = test::readFile(path);
    CudaLintResult result = test::lintCudaCase(text);
    std::vector<Reported> got = reported(text, result.diagnostics);
    INFO(path.filename().string() << "\n" << test::describe(text, result.diagnostics));
    if (path.filename().string().starts_with("ok_")) {
      CHECK(got.empty());
      continue;
    }
    ++defects;
    std::vector<test::ExpectedFinding> expected = test::expectedCudaFindings(text);
    CHECK(expected.size() == 1);
    for (const test::ExpectedFinding& finding : expected) {
      ++expectedTotal;
      ++casesPerCode[finding.code];
      bool onLine = false, atColumn = false;
      for (const Reported& r : got) {
        if (r.code != finding.code || r.line != finding.line) continue;
        onLine = true;
        atColumn = atColumn || (finding.column && r.column == *finding.column);
      }
      CHECK(onLine);
      foundOnLine += onLine ? 1 : 0;
      exact += atColumn ? 1 : 0;
    }
    // Nothing but the marked findings.
    for (const Reported& r : got) {
      INFO("unexpected " << r.code << " on line " << r.line);
      CHECK(std::any_of(expected.begin(), expected.end(),
                        [&](const test::ExpectedFinding& e) { return e.code == r.code && e.line == r.line; }));
    }
  }
  INFO(defects << " defect files, " << foundOnLine << " of " << expectedTotal << " found on their line, " << exact
               << " at their characters");
  CHECK(defects >= 40);
  CHECK(files.size() >= 2 * defects);
  CHECK(exact * 10 >= expectedTotal * 9);
  for (const char* code : {"ASM001", "ASM002", "ASM003", "ASM004", "ASM005", "ASM006", "ASM007", "ASM008", "ASM009",
                           "ASM010", "ASM013", "ISA001", "ISA004", "ISA006", "ISA008"}) {
    INFO(code);
    CHECK(casesPerCode[code] >= 1);
  }
}

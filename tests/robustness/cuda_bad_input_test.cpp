// Bad CUDA input for the inline-PTX lint: binary bytes, unterminated literals, unbalanced
// parentheses, 10,000 asm statements in one file and a 2 MB template each get a clear result
// (a diagnostic or none, every range inside the text), never a crash or a hang.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "inline_asm/CudaLint.h"

using namespace ptx;

namespace {

CudaLintResult lintFor(const std::string& text) {
  CudaLintOptions options;
  options.passes = cuda::passesForArch("sm_90a", "test").passes;
  return lintCudaText(text, options);
}

bool hasRule(const CudaLintResult& result, std::string_view code) {
  for (const Diagnostic& diagnostic : result.diagnostics)
    if (diagnostic.rule == code) return true;
  return false;
}

}  // namespace

TEST_CASE("cuda bad input: binary bytes get one diagnostic and no extraction", "[cuda][robustness]") {
  CudaLintResult result = lintFor(std::string("\0\x01 asm(\"trap;\") ", 16));
  REQUIRE(result.diagnostics.size() == 1);
  CHECK(result.diagnostics[0].rule == "SYN006");
  CHECK(result.statements == 0);
}

TEST_CASE("cuda bad input: unterminated literals and unbalanced parentheses", "[cuda][robustness]") {
  const std::string texts[] = {
      "__device__ void f(unsigned& x) { asm volatile(\"mov.u32 %0, 1;\n : \"=r\"(x)); }\n",
      "__device__ void f() { asm(R\"X( trap;\n}\n",
      "__device__ void f(unsigned& x) { asm volatile(\"mov.u32 %0, 1;\" : \"=r\"(((x)); }\n"
      "__device__ void g() { asm(\"bogus.op;\"); }\n",
      "__device__ void f() { asm volatile(\"trap;\"",
      "#if 1\n__device__ void f() { asm(\"trap;\"); }\n",
  };
  for (const std::string& text : texts) {
    CudaLintResult result = lintFor(text);
    for (const Diagnostic& diagnostic : result.diagnostics) {
      CHECK(diagnostic.range.begin <= diagnostic.range.end);
      CHECK(diagnostic.range.end <= text.size());
    }
  }
  // A statement after one with unbalanced parentheses is still found and checked.
  std::string broken =
      "__device__ void f(unsigned& x) { asm volatile(\"mov.u32 %0, 1;\" : \"=r\"(((x)); }\n"
      "__device__ void g() { asm volatile(\"bogus.op;\"); }\n";
  CHECK(hasRule(lintFor(broken), "ISA001"));
}

TEST_CASE("cuda bad input: 10,000 asm statements in one file", "[cuda][robustness]") {
  std::string text = "__device__ unsigned f(unsigned a, unsigned b) {\n  unsigned r = 0;\n";
  for (int k = 0; k < 10000; ++k)
    text += "  asm volatile(\"add.u32 %0, %1, " + std::to_string(k) + ";\" : \"=r\"(r) : \"r\"(a));\n";
  text += "  asm volatile(\"bogus.op %0;\" : \"+r\"(r));\n  return r;\n}\n";
  CudaLintResult result = lintFor(text);
  CHECK(result.statements == 10001);
  CHECK(hasRule(result, "ISA001"));
}

TEST_CASE("cuda bad input: a 2 MB template", "[cuda][robustness]") {
  std::string body;
  while (body.size() < (std::size_t{2} << 20)) body += "add.u32 %0, %0, 1;\\n";
  std::string text = "__device__ unsigned f(unsigned r) { asm volatile(\"" + body +
                     "mvo.u32 %0, 1;\" : \"+r\"(r)); return r; }\n";
  CudaLintResult result = lintFor(text);
  CHECK(result.statements == 1);
  CHECK(hasRule(result, "ISA001"));
}

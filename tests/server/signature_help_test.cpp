// Signature help: the fitting forms of the instruction being typed and the operand the
// cursor is in, on complete and on half-typed statements, and that no offset breaks it.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "Annotated.h"
#include "TestSupport.h"
#include "features/SignatureHelp.h"

using namespace ptx;
using namespace ptx::lsp;
using ptx::test::Annotated;

namespace {

std::optional<SignatureHelp> help(std::string_view annotated) {
  Annotated source(annotated);
  LintResult analysis = lintText(source.text());
  return signatureHelpAt(source.text(), analysis, source.point());
}

std::string inKernel(std::string_view body) {
  std::string out = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n";
  out += "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n";
  out += body;
  out += "\n}\n";
  return out;
}

std::string_view parameterText(const SignatureInfo& info, std::uint32_t index) {
  ByteRange range = info.parameters.at(index);
  return std::string_view(info.label).substr(range.begin, range.end - range.begin);
}

}  // namespace

TEST_CASE("Signature help shows the typed form and the operand at the cursor", "[signature]") {
  auto result = help(inKernel("  add.s32 %r1, ^"));
  REQUIRE(result);
  CHECK(result->activeParameter == 1);
  REQUIRE(result->signatures.size() >= 1);
  const SignatureInfo& active = result->signatures.at(result->activeSignature);
  CHECK(active.label == "add.s32 d, a, b");
  REQUIRE(active.parameters.size() == 3);
  CHECK(parameterText(active, 0) == "d");
  CHECK(parameterText(active, 1) == "a");
  CHECK(active.documentation.find("`d`") != std::string::npos);
  CHECK(active.documentation.find(".s32") != std::string::npos);
}

TEST_CASE("Signature help starts at the first operand after the spelling", "[signature]") {
  auto result = help(inKernel("  add.s32 ^"));
  REQUIRE(result);
  CHECK(result->activeParameter == 0);
}

TEST_CASE("Signature help works before the statement is complete", "[signature]") {
  // No `;` and no closing brace: the statement does not parse.
  std::string text = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
                     "  .reg .b32 %r<4>;\n  mad.lo.s32 %r1, %r2, ";
  LintResult analysis = lintText(text);
  auto result = signatureHelpAt(text, analysis, static_cast<std::uint32_t>(text.size()));
  REQUIRE(result);
  CHECK(result->activeParameter == 2);
  CHECK(result->signatures.at(result->activeSignature).label == "mad.lo.s32 d, a, b, c");
}

TEST_CASE("Signature help ignores commas inside brackets and braces", "[signature]") {
  auto vector = help(inKernel("  ld.global.v2.u32 {%r1, %r2}, [%rd1+^"));
  REQUIRE(vector);
  CHECK(vector->activeParameter == 1);
  auto store = help(inKernel("  st.global.v2.u32 [%rd1], {%r1, ^"));
  REQUIRE(store);
  CHECK(store->activeParameter == 1);
}

TEST_CASE("Signature help marks optional operands and picks a form that has the operand", "[signature]") {
  auto result = help(inKernel("  ld.global.u32 %r1, [%rd1], ^"));
  REQUIRE(result);
  CHECK(result->activeParameter == 2);
  const SignatureInfo& active = result->signatures.at(result->activeSignature);
  REQUIRE(active.parameters.size() == 3);
  CHECK(active.label.find("{c}") != std::string::npos);
}

TEST_CASE("Signature help lists the templates of forms a partial spelling may become", "[signature]") {
  auto result = help(inKernel("  setp ^"));
  REQUIRE(result);
  REQUIRE(result->signatures.size() > 1);
  CHECK(result->signatures.front().label.starts_with("setp."));
  CHECK(result->signatures.size() <= 24);
}

TEST_CASE("Signature help is absent outside operand lists", "[signature]") {
  CHECK_FALSE(help(inKernel("  add.s3^2 %r1, %r2, %r3;")));
  CHECK_FALSE(help(inKernel("  add^")));
  CHECK_FALSE(help(inKernel("  .reg .b32 %x, ^;")));
  CHECK_FALSE(help(inKernel("  // add.s32 %r1, ^")));
  CHECK_FALSE(help(inKernel("  frobnicate %r1, ^")));
  CHECK_FALSE(help(inKernel("  add.s32 %r1, %r2, %r3;\n^")));
}

TEST_CASE("Signature help follows a guard", "[signature]") {
  auto result = help(inKernel("  .reg .pred %p1;\n  @!%p1 bra ^"));
  REQUIRE(result);
  CHECK(result->signatures.at(result->activeSignature).label == "bra target");
}

TEST_CASE("Signature help survives any offset", "[signature]") {
  LintResult none;
  CHECK_FALSE(signatureHelpAt("", none, 0));
  CHECK_FALSE(signatureHelpAt("", none, 7));
  std::string text = inKernel("  // é\n  add.s32 %r1, %r2, 1;\n  ld.global.u32 %r1, [");
  LintResult analysis = lintText(text);
  for (std::uint32_t offset = 0; offset <= text.size() + 2; ++offset) {
    auto result = signatureHelpAt(text, analysis, offset);
    if (!result) continue;
    CHECK(result->activeSignature < result->signatures.size());
    for (const SignatureInfo& info : result->signatures) {
      for (ByteRange range : info.parameters) CHECK(range.end <= info.label.size());
    }
  }
  auto shared = ptx::test::sharedDir();
  if (!shared) return;
  std::filesystem::path path = *shared / "corpus" / "gpuocelot/tests/ptx/parboil/mri-q.ptx";
  if (!std::filesystem::exists(path)) return;
  std::string corpus = ptx::test::readFile(path);
  LintResult corpusAnalysis = lintText(corpus);
  std::mt19937 random(11);
  std::uniform_int_distribution<std::uint32_t> offsets(0, static_cast<std::uint32_t>(corpus.size()) + 1);
  std::size_t found = 0;
  for (int i = 0; i < 500; ++i) {
    auto result = signatureHelpAt(corpus, corpusAnalysis, offsets(random));
    if (result) {
      ++found;
      REQUIRE(result->activeSignature < result->signatures.size());
    }
  }
  CHECK(found > 0);
}

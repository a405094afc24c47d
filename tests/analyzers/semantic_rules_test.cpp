// Semantic and ISA rules: messages, severities and suggestions on minimal inputs (beside the
// rules' cases in tests/rules/; tagged with the rule codes they test).
#include <catch2/catch.hpp>

#include <string>

#include "TestSupport.h"

using namespace ptx;
using test::kernel;

namespace {

std::vector<Diagnostic> withRule(const std::string& text, std::string_view rule) {
  std::vector<Diagnostic> matching;
  for (Diagnostic& d : test::lint(text)) {
    if (d.rule == rule) matching.push_back(std::move(d));
  }
  return matching;
}

}  // namespace

TEST_CASE("SEM001 suggests the closest declared name", "[rules][SEM001]") {
  auto found = withRule(kernel("  .reg .b32 %count;\n  mov.u32 %cuont, 1;"), "SEM001");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message == "use of undeclared identifier '%cuont'; did you mean '%count'?");
  CHECK(found[0].category == Category::Semantic);
}

TEST_CASE("SEM001 stays quiet inside code with syntax errors", "[rules][SEM001]") {
  auto diagnostics = test::lint(kernel("  mov.u32 %nowhere, [%rd1-4];"));
  for (const Diagnostic& d : diagnostics) CHECK(d.rule != "SEM001");
}

TEST_CASE("SEM002 points at the earlier range that already declares the name", "[rules][SEM002]") {
  std::string text = kernel("  .reg .b32 %r<4>;\n  .reg .b32 %r3;\n  ret;");
  auto found = withRule(text, "SEM002");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message == "duplicate declaration of register '%r3' in the same scope");
  REQUIRE(found[0].related.size() == 1);
  CHECK(found[0].related[0].message == "'%r<4>' already declares it here");
}

TEST_CASE("SEM004 explains a definition that comes too late", "[rules][SEM004]") {
  std::string text = ".version 8.0\n.target sm_80\n.entry k()\n{\n  call f;\n  ret;\n}\n"
                     ".func f()\n{\n  ret;\n}\n";
  auto found = withRule(text, "SEM004");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message ==
        "call to undeclared function 'f'; it is defined later, so declare a prototype before the call");
  REQUIRE(found[0].related.size() == 1);
}

TEST_CASE("SEM006 warns about 32-bit addressing and rejects other sizes", "[rules][SEM006]") {
  auto thirtyTwo = withRule(".version 8.0\n.target sm_80\n.address_size 32\n", "SEM006");
  REQUIRE(thirtyTwo.size() == 1);
  CHECK(thirtyTwo[0].severity == Severity::Warning);
  auto sixteen = withRule(".version 8.0\n.target sm_80\n.address_size 16\n", "SEM006");
  REQUIRE(sixteen.size() == 1);
  CHECK(sixteen[0].severity == Severity::Error);
  CHECK(withRule(".version 8.0\n.target sm_80\n.address_size 64\n", "SEM006").empty());
}

TEST_CASE("ISA001 knows every reserved opcode and suggests near misses", "[rules][ISA001]") {
  CHECK(withRule(kernel("  .reg .b32 %r;\n  popc.b32 %r, %r;\n  ret;"), "ISA001").empty());
  auto found = withRule(kernel("  .reg .b32 %r;\n  pocp.b32 %r, %r;\n  ret;"), "ISA001");
  REQUIRE(found.size() == 1);
  CHECK(found[0].category == Category::Isa);
  CHECK(found[0].message.starts_with("unknown instruction 'pocp'"));
}

TEST_CASE("ISA004 suggests the closest modifier of the family", "[rules][ISA004]") {
  auto found = withRule(kernel("  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;\n  ld.globl.u32 %r1, [%rd1];\n  ret;"), "ISA004");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message == "unknown modifier '.globl' for 'ld'; did you mean '.global'?");
}

TEST_CASE("ISA005 names the alternatives or the missing modifier", "[rules][ISA005]") {
  auto twoModes = withRule(kernel("  .reg .f32 %f<4>;\n  add.rn.rz.f32 %f1, %f2, %f3;\n  ret;"), "ISA005");
  REQUIRE(twoModes.size() == 1);
  CHECK(twoModes[0].message.find("'.rn' and '.rz' are alternatives") != std::string::npos);
  auto missing = withRule(kernel("  .reg .b32 %r<4>;\n  mul.s32 %r1, %r2, %r3;\n  ret;"), "ISA005");
  REQUIRE(missing.size() == 1);
  CHECK(missing[0].message.find("missing one of .hi .lo .wide") != std::string::npos);
  auto type = withRule(kernel("  .reg .b32 %r<4>;\n  add.b32 %r1, %r2, %r3;\n  ret;"), "ISA005");
  REQUIRE(type.size() == 1);
  CHECK(type[0].message.find("does not take type .b32") != std::string::npos);
}

TEST_CASE("ISA006-ISA008 point at the operand at fault", "[rules][ISA006][ISA007][ISA008]") {
  std::string text = kernel("  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;\n  add.s32 %r1, %rd1, %r2;\n  ret;");
  auto type = withRule(text, "ISA008");
  REQUIRE(type.size() == 1);
  CHECK(text.substr(type[0].range.begin, type[0].range.end - type[0].range.begin) == "%rd1");
  CHECK(type[0].message.find(".b64, which does not fit .s32") != std::string::npos);
  // Relaxed rules: a wider destination for ld, a wider source for st and cvt.
  std::string relaxed = kernel("  .reg .b64 %rd<2>;\n  .reg .b32 %r<2>;\n  ld.global.u16 %rd1, [%rd0];\n"
                               "  st.global.u8 [%rd0], %r1;\n  cvt.u16.u32 %r0, %rd1;\n  ret;");
  INFO(test::describe(relaxed, test::lint(relaxed)));
  CHECK(test::lint(relaxed).empty());
  // ...but never narrower.
  CHECK(withRule(kernel("  .reg .b64 %rd<2>;\n  .reg .b16 %h;\n  ld.global.u32 %h, [%rd0];\n  ret;"), "ISA008").size() == 1);
  auto count = withRule(kernel("  .reg .b32 %r<4>;\n  add.s32 %r1, %r2;\n  ret;"), "ISA006");
  REQUIRE(count.size() == 1);
  CHECK(count[0].message.find("takes 3 operands, not 2") != std::string::npos);
  auto kind = withRule(kernel("  .reg .b32 %r<4>;\n  bra.uni %r1;\n  ret;"), "ISA007");
  REQUIRE(kind.size() == 1);
  CHECK(kind[0].message.find("must be a label") != std::string::npos);
}

TEST_CASE("ISA009 reports 8-bit registers outside ld, st and cvt", "[rules][ISA009]") {
  std::string ok = kernel("  .reg .u8 %c;\n  .reg .b32 %r;\n  .reg .b64 %rd;\n  ld.global.u8 %c, [%rd];\n"
                          "  cvt.u32.u8 %r, %c;\n  st.global.u8 [%rd], %c;\n  ret;");
  CHECK(withRule(ok, "ISA009").empty());
  auto found = withRule(kernel("  .reg .u8 %c;\n  .reg .b32 %r;\n  mov.u32 %r, %c;\n  ret;"), "ISA009");
  REQUIRE(found.size() == 1);
  REQUIRE(found[0].related.size() == 1);
}

TEST_CASE("ISA010 warns when .vN is not right before the type, as ptxas does", "[rules][ISA010]") {
  std::string text = kernel("  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;\n  st.global.u32.v2 [%rd1], {%r1, %r2};\n"
                            "  ld.v2.u32.global {%r1, %r2}, [%rd1];\n  ret;");
  auto found = withRule(text, "ISA010");
  REQUIRE(found.size() == 1);
  CHECK(found[0].severity == Severity::Warning);
}

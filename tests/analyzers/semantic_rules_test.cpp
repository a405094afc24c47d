// Semantic and ISA rules: messages, severities and suggestions on minimal inputs.
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

TEST_CASE("SEM001 suggests the closest declared name", "[rules]") {
  auto found = withRule(kernel("  .reg .b32 %count;\n  mov.u32 %cuont, 1;"), "SEM001");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message == "use of undeclared identifier '%cuont'; did you mean '%count'?");
  CHECK(found[0].category == Category::Semantic);
}

TEST_CASE("SEM001 stays quiet inside code with syntax errors", "[rules]") {
  auto diagnostics = test::lint(kernel("  mov.u32 %nowhere, [%rd1-4];"));
  for (const Diagnostic& d : diagnostics) CHECK(d.rule != "SEM001");
}

TEST_CASE("SEM002 points at the earlier range that already declares the name", "[rules]") {
  std::string text = kernel("  .reg .b32 %r<4>;\n  .reg .b32 %r3;\n  ret;");
  auto found = withRule(text, "SEM002");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message == "duplicate declaration of register '%r3' in the same scope");
  REQUIRE(found[0].related.size() == 1);
  CHECK(found[0].related[0].message == "'%r<4>' already declares it here");
}

TEST_CASE("SEM004 explains a definition that comes too late", "[rules]") {
  std::string text = ".version 8.0\n.target sm_80\n.entry k()\n{\n  call f;\n  ret;\n}\n"
                     ".func f()\n{\n  ret;\n}\n";
  auto found = withRule(text, "SEM004");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message ==
        "call to undeclared function 'f'; it is defined later, so declare a prototype before the call");
  REQUIRE(found[0].related.size() == 1);
}

TEST_CASE("SEM006 warns about 32-bit addressing and rejects other sizes", "[rules]") {
  auto thirtyTwo = withRule(".version 8.0\n.target sm_80\n.address_size 32\n", "SEM006");
  REQUIRE(thirtyTwo.size() == 1);
  CHECK(thirtyTwo[0].severity == Severity::Warning);
  auto sixteen = withRule(".version 8.0\n.target sm_80\n.address_size 16\n", "SEM006");
  REQUIRE(sixteen.size() == 1);
  CHECK(sixteen[0].severity == Severity::Error);
  CHECK(withRule(".version 8.0\n.target sm_80\n.address_size 64\n", "SEM006").empty());
}

TEST_CASE("ISA001 knows every reserved opcode and suggests near misses", "[rules]") {
  CHECK(withRule(kernel("  .reg .b32 %r;\n  popc.b32 %r, %r;\n  ret;"), "ISA001").empty());
  auto found = withRule(kernel("  .reg .b32 %r;\n  pocp.b32 %r, %r;\n  ret;"), "ISA001");
  REQUIRE(found.size() == 1);
  CHECK(found[0].category == Category::Isa);
  CHECK(found[0].message.starts_with("unknown instruction 'pocp'"));
}

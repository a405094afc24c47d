// Inline suppression comments and LNT001 unused-suppression.
#include <catch2/catch.hpp>

#include <string>

#include "Lint.h"
#include "TestSupport.h"

using namespace ptx;

namespace {

std::string rulesOf(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) out += d.rule + " ";
  return out;
}

// Two undeclared registers (SEM001) and a vector-type-order warning (ISA010) to silence.
const std::string kBody =
    "\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<2>;\n"
    "\tadd.s32 %r1, %r2, %q1;\n"
    "\tld.global.u32.v2 {%r1, %r2}, [%rd1];\n"
    "\tadd.s32 %r1, %r2, %q2;\n\tret;\n";

}  // namespace

TEST_CASE("Without suppressions every finding is reported", "[suppressions]") {
  CHECK(rulesOf(lintText(test::kernel(kBody)).diagnostics) == "SEM001 ISA010 SEM001 ");
}

TEST_CASE("disable-next-line silences the named rules on the next line only", "[suppressions]") {
  std::string body = kBody;
  body.insert(body.find("\tadd.s32 %r1, %r2, %q1"), "\t// ptxlint: disable-next-line=SEM001\n");
  CHECK(rulesOf(lintText(test::kernel(body)).diagnostics) == "ISA010 SEM001 ");
  // By name, several at once, with an explanation after the list.
  body = kBody;
  body.insert(body.find("\tld.global"), "\t// ptxlint: disable-next-line=vector-type-order,SEM001  legacy order\n");
  // SEM001 silences nothing on the `ld` line: that part of the comment is reported.
  CHECK(rulesOf(lintText(test::kernel(body)).diagnostics) == "SEM001 LNT001 SEM001 ");
}

TEST_CASE("disable ... enable silences a region, all silences every rule", "[suppressions]") {
  std::string body = kBody;
  body.insert(body.find("\tadd.s32 %r1, %r2, %q1"), "\t// ptxlint: disable=SEM001\n");
  body.insert(body.find("\tadd.s32 %r1, %r2, %q2"), "\t// ptxlint: enable=SEM001\n");
  CHECK(rulesOf(lintText(test::kernel(body)).diagnostics) == "ISA010 SEM001 ");
  body = "\t// ptxlint: disable=all\n" + kBody;
  CHECK(lintText(test::kernel(body)).diagnostics.empty());
}

TEST_CASE("Suppressions that silence nothing are reported with a fix that removes them", "[suppressions]") {
  std::string body = "\t// ptxlint: disable-next-line=ISA001\n" + kBody + "\t// ptxlint: disable-next-line=NOPE999\n";
  std::string text = test::kernel(body);
  LintResult result = lintText(text);
  CHECK(rulesOf(result.diagnostics) == "LNT001 SEM001 ISA010 SEM001 LNT001 ");
  const Diagnostic& unused = result.diagnostics.front();
  CHECK(unused.severity == Severity::Warning);
  CHECK(text.substr(unused.range.begin, unused.range.end - unused.range.begin) == "// ptxlint: disable-next-line=ISA001");
  REQUIRE(unused.fixes.size() == 1);
  CHECK(result.diagnostics.back().message.find("NOPE999") != std::string::npos);
  // A marker outside a `//` comment start is not a directive.
  CHECK(rulesOf(lintText(test::kernel("\tret; // see ptxlint: disable=all\n")).diagnostics).empty());
}

TEST_CASE("Rule settings apply to LNT001 like to any rule", "[suppressions]") {
  LintOptions options;
  options.rules["LNT001"].enabled = false;
  CHECK(lintText(test::kernel("\t// ptxlint: disable-next-line=ISA001\n\tret;\n"), options).diagnostics.empty());
}

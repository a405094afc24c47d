// SyntaxDiagnostics: each kind of mistake gets a specific message at the right place.
#include <catch2/catch.hpp>

#include <string>

#include "TestSupport.h"
#include "text/LineIndex.h"

using namespace ptx;
using test::kernel;
using test::lint;

namespace {

// The only diagnostic for `text`; fails the test when there is not exactly one.
Diagnostic only(const std::string& text) {
  auto diagnostics = lint(text);
  INFO(test::describe(text, diagnostics));
  REQUIRE(diagnostics.size() == 1);
  return diagnostics.front();
}

std::uint32_t lineOf(const std::string& text, std::uint32_t offset) {
  return LineIndex(text).lineOf(offset) + 1;
}

}  // namespace

TEST_CASE("Valid PTX has no diagnostics", "[syntax-diagnostics]") {
  std::string text = kernel(
      "  .reg .b32 %r<3>;\n  .reg .pred %p;\n  mov.u32 %r1, %tid.x;\n"
      "  setp.lt.u32 %p|_, %r1, (1 << 4) + WARP_SZ;\n  @!%p bra $done;\n"
      "  { .reg .b32 %r1; mov.b32 %r1, 0f3f800000; }\n$done:\n  ret;");
  auto diagnostics = lint(text);
  INFO(test::describe(text, diagnostics));
  CHECK(diagnostics.empty());
}

TEST_CASE("A missing ',' is reported after the instruction and reaches the next token",
          "[syntax-diagnostics]") {
  std::string text = kernel("  mov.u32 %r1, %r2\n  ret;");
  Diagnostic d = only(text);
  CHECK(d.rule == "SYN002");
  CHECK(d.severity == Severity::Error);
  CHECK(d.category == Category::Syntax);
  CHECK(d.message == "expected ';' after instruction");
  CHECK(text.substr(d.range.begin - 3, 3) == "%r2");
  CHECK(text.substr(d.range.end - 3, 3) == "ret");
}

TEST_CASE("An unclosed block points back at its '{'", "[syntax-diagnostics]") {
  std::string text = ".version 8.0\n.target sm_80\n.entry k()\n{\n  ret;\n";
  Diagnostic d = only(text);
  CHECK(d.message ==
        "the file ends inside the body of function 'k' opened at line 4: expected '}' to close it (is the file "
        "truncated?)");
  REQUIRE(d.related.size() == 1);
  CHECK(d.related[0].message == "the body of function 'k' opens here");
  CHECK(text[d.related[0].range.begin] == '{');
  CHECK(d.range.end == text.size());
}

TEST_CASE("A minus address offset suggests '+-'", "[syntax-diagnostics]") {
  Diagnostic d = only(kernel("  ld.global.u32 %r1, [%rd1-4];"));
  CHECK(d.rule == "SYN001");
  CHECK(d.message.starts_with("unexpected '-' in address"));
  CHECK(d.message.find("[%rd1+-4]") != std::string::npos);
}

TEST_CASE("A missing comma is not read as a modulo", "[syntax-diagnostics]") {
  Diagnostic d = only(kernel("  mad.lo.s32 %r5 %r2, %r3, %r4;"));
  CHECK(d.message == "unexpected '%r2' in instruction");
}

TEST_CASE("A modulo between spaced operands is an expression", "[syntax-diagnostics]") {
  CHECK(lint(kernel("  .reg .b32 %r1;\n  mov.u32 %r1, 10 % 3;")).empty());
}

TEST_CASE("Uppercase keywords get a lowercase suggestion", "[syntax-diagnostics]") {
  auto diagnostics = lint(kernel("  .REG .f32 %f1;"));
  REQUIRE_FALSE(diagnostics.empty());
  CHECK(diagnostics[0].rule == "SYN004");
  CHECK(diagnostics[0].message ==
        "unknown directive '.REG'; PTX keywords are lowercase: did you mean '.reg'?");
}

TEST_CASE("Non-ASCII bytes are reported even in comments", "[syntax-diagnostics]") {
  std::string text = kernel("  ret; // caf\xC3\xA9");
  Diagnostic d = only(text);
  CHECK(d.rule == "SYN003");
  CHECK(d.range.end - d.range.begin == 2);
  CHECK(lineOf(text, d.range.begin) == 7);
}

TEST_CASE("Only line markers are accepted as preprocessor lines", "[syntax-diagnostics]") {
  CHECK(lint("# 1 \"a.cu\"\n#line 3 \"a.cu\"\n" + kernel("  ret;")).empty());
  Diagnostic d = only("#define N 4\n" + kernel("  ret;"));
  CHECK(d.rule == "SYN005");
  CHECK(d.message.starts_with("preprocessor directive '#define' is not PTX"));
  CHECK(only("# 30\n" + kernel("  ret;")).rule == "SYN005");
}

TEST_CASE("A guard without a predicate is caught at the would-be opcode", "[syntax-diagnostics]") {
  Diagnostic d = only(kernel("  @ bra $L__done;\n$L__done:\n  ret;"));
  CHECK(d.rule == "SYN008");
  CHECK(d.message ==
        "expected an instruction opcode, found '$L__done'; the guard '@' took 'bra' as its "
        "predicate");
}

TEST_CASE("An unterminated block comment is reported once", "[syntax-diagnostics]") {
  Diagnostic d = only(kernel("  /* never closed\n  mov.u32 %r1, %r2\n  ret;"));
  CHECK(d.message == "unterminated block comment: '/*' has no matching '*/'");
}

TEST_CASE("A stray '}' gives one diagnostic, not a cascade", "[syntax-diagnostics]") {
  Diagnostic d = only(kernel("  .reg .b32 %r<3>;\n  mov.u32 %r1, %r2;\n  }\n  add.s32 %r1, %r1, 1;\n  ret;"));
  CHECK(d.message.starts_with("unexpected 'add' at module level"));
}

TEST_CASE("Trailing commas name the bracket that follows", "[syntax-diagnostics]") {
  Diagnostic d = only(".version 8.0\n.target sm_80\n.global .u32 lut[2] = {1, 2,};\n");
  CHECK(d.message == "trailing ',' before '}' in initializer: another item must follow the comma");
}

TEST_CASE("Binary input gets one diagnostic and no parse", "[syntax-diagnostics]") {
  std::string text("\x7f" "ELF\0\0\0garbage", 13);
  Diagnostic d = only(text);
  CHECK(d.rule == "SYN006");
}

TEST_CASE("The number of syntax diagnostics is capped", "[syntax-diagnostics]") {
  std::string body;
  for (int i = 0; i < 1000; ++i) body += "  ld.global.u32 %r1, [%rd1-4];\n";
  auto diagnostics = lint(kernel(body));
  REQUIRE(diagnostics.size() == 200);
  CHECK(diagnostics.back().message.find("further syntax errors not shown") != std::string::npos);
}

// A file cut off inside a function body (ptxas 13.0: "Parsing error near '': syntax error" on
// the line after the last one) is reported at the end of the file, naming the function and
// the line its body opens on, not as a stray '{' at the top of the function.
TEST_CASE("A file truncated inside a function body says so at its end", "[syntax-diagnostics]") {
  const std::string head =
      ".version 8.5\n.target sm_90\n.address_size 64\n\n.visible .func (.param .b32 r) helper(\n"
      "\t.param .b32 a\n)\n{\n\t.reg .b32 \t%r<4>;\n\tld.param.b32 \t%r1, [a];\n";
  // Cut inside a statement (the parse takes the body's '{' for a stray brace) and after a
  // whole one (the parse invents the closing '}'): one message, the same, for both.
  for (std::string tail : {std::string("\tadd.s32 \t%r2, %r1, "), std::string("\tadd.s32 \t%r2, %r1, 1;\n")}) {
    std::string text = head + tail;
    Diagnostic d = only(text);
    CHECK(d.rule == "SYN002");
    CHECK(d.message ==
          "the file ends inside the body of function 'helper' opened at line 8: expected '}' to close it (is the "
          "file truncated?)");
    CHECK(lineOf(text, d.range.begin) == 11);
    CHECK(d.range.end == text.size());
    REQUIRE(d.related.size() == 1);
    CHECK(lineOf(text, d.related[0].range.begin) == 8);
    CHECK(text[d.related[0].range.begin] == '{');
  }
}

TEST_CASE("A function without its '}' before the next function is not called truncated", "[syntax-diagnostics]") {
  std::string text = ".version 8.5\n.target sm_90\n.address_size 64\n\n.visible .entry a()\n{\n\tret;\n\n"
                     ".visible .entry b()\n{\n\tret;\n}\n";
  auto diagnostics = lint(text);
  INFO(test::describe(text, diagnostics));
  REQUIRE_FALSE(diagnostics.empty());
  for (const Diagnostic& d : diagnostics) CHECK(d.message.find("file ends inside") == std::string::npos);
}

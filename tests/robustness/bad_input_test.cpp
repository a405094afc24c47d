// Bad input: every case gets a clear diagnostic or a clean result, and never a crash, a
// hang or a stack overflow.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>

#include "Lint.h"
#include "syntax/SyntaxTree.h"
#include "TestSupport.h"

using namespace ptx;
using test::kernel;

namespace {

std::string repeat(std::string_view piece, std::size_t count) {
  std::string out;
  out.reserve(piece.size() * count);
  for (std::size_t i = 0; i < count; ++i) out += piece;
  return out;
}

}  // namespace

TEST_CASE("An empty file is clean", "[robustness]") {
  CHECK(test::lint("").empty());
  CHECK(test::lint("\n\n  \t\n").empty());
}

TEST_CASE("Binary garbage is one clear diagnostic", "[robustness]") {
  std::mt19937 random(7);
  std::string garbage(1 << 20, '\0');
  for (char& c : garbage) c = static_cast<char>(random() & 0xFF);
  auto diagnostics = test::lint(garbage);
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].rule == "SYN006");
}

TEST_CASE("Printable garbage is reported with a capped number of diagnostics", "[robustness]") {
  std::mt19937 random(11);
  std::string garbage(1 << 20, ' ');
  for (char& c : garbage) c = static_cast<char>(0x20 + random() % 0x5F);
  auto diagnostics = test::lint(garbage);
  CHECK_FALSE(diagnostics.empty());
  CHECK(diagnostics.size() <= 200);
}

TEST_CASE("A UTF-8 byte-order mark gets its own diagnostic and nothing else", "[robustness]") {
  auto diagnostics = test::lint("\xEF\xBB\xBF" + kernel("  ret;"));
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].rule == "SYN003");
  CHECK(diagnostics[0].message.starts_with("UTF-8 byte-order mark"));
}

TEST_CASE("CRLF line ends are whitespace", "[robustness]") {
  std::string text = kernel("  .reg .b32 %r<2>;\r\n  mov.u32 %r1, 1;\r\n  ret;");
  for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 2)) {
    if (at == 0 || text[at - 1] != '\r') text.insert(at, 1, '\r');
  }
  CHECK(test::lint(text).empty());
}

TEST_CASE("Truncated files never crash and unfinished ones are reported", "[robustness]") {
  auto folder = test::sourceDir() / "tests/syntax_cases/accepted";
  std::size_t truncations = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() != ".ptx") continue;
    std::string text = test::readFile(entry.path());
    for (std::size_t cut = 1; cut < text.size(); cut += 37) {
      std::string truncated = text.substr(0, cut);
      auto diagnostics = test::lint(truncated);
      ++truncations;
      // Cut inside a function body, the file cannot be complete.
      auto open = std::count(truncated.begin(), truncated.end(), '{');
      auto close = std::count(truncated.begin(), truncated.end(), '}');
      if (open > close && truncated.find("//") == std::string::npos &&
          truncated.find("/*") == std::string::npos) {
        INFO(entry.path().filename().string() << " cut at " << cut);
        CHECK_FALSE(diagnostics.empty());
      }
    }
  }
  CHECK(truncations > 300);
}

TEST_CASE("20,000 nested blocks parse without exhausting the stack", "[robustness]") {
  std::string balanced = kernel(repeat("{", 20000) + " ret; " + repeat("}", 20000));
  CHECK(test::lint(balanced).empty());

  std::string unclosed = kernel(repeat("{ ", 20000) + " ret;");
  auto diagnostics = test::lint(unclosed);
  CHECK_FALSE(diagnostics.empty());
  CHECK(diagnostics.size() <= 200);

  auto atModuleLevel = test::lint(repeat("{", 20000));
  CHECK_FALSE(atModuleLevel.empty());
}

TEST_CASE("A 10 MB single line parses", "[robustness][large]") {
  std::string line = ".version 8.0 .target sm_80 .address_size 64 .visible .entry k() { "
                     ".reg .b32 %r<4>; ";
  std::string instruction = "add.s32 %r1, %r2, %r3; ";
  line += repeat(instruction, (10u << 20) / instruction.size());
  line += "ret; }";
  REQUIRE(line.size() > (10u << 20));
  REQUIRE(line.find('\n') == std::string::npos);
  CHECK(test::lint(line).empty());

  // The same line with a mistake at the very end is reported there.
  std::string broken = line.substr(0, line.size() - 6) + "ret }";
  auto diagnostics = test::lint(broken);
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].range.begin > (10u << 20));
}

TEST_CASE("A 50 MB file parses", "[robustness][large]") {
  std::string body = "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p1;\n";
  std::string chunk =
      "  ld.global.u32 %r1, [%rd1+4];\n  add.s32 %r2, %r1, 1;\n"
      "  setp.lt.s32 %p1, %r2, 100;\n  @%p1 st.global.u32 [%rd1], %r2;\n";
  std::string text = ".version 8.0\n.target sm_80\n.address_size 64\n";
  std::string function = ".visible .entry k() {\n" + body + repeat(chunk, 2000) + "  ret;\n}\n";
  text += repeat(function, (50u << 20) / function.size() + 1);
  REQUIRE(text.size() > (50u << 20));
  LintResult result = lintText(text);
  CHECK(result.tree.isComplete());
  CHECK(result.diagnostics.empty());
}

TEST_CASE("Texts over four times the size limit get one note instead of a parse", "[robustness]") {
  LintOptions options;
  options.maxTextBytes = 1024;
  LintResult result = lintText(std::string(4 * 1024 + 1, ' '), options);
  REQUIRE(result.diagnostics.size() == 1);
  CHECK(result.diagnostics[0].rule == "SYN007");
  CHECK(result.diagnostics[0].severity == Severity::Information);
  CHECK(!result.tree.isComplete());
}

TEST_CASE("Texts over the size limit are syntax-checked and resolved, without rules", "[robustness]") {
  // A missing semicolon (a syntax error) and a suppression that silences nothing.
  std::string text = test::kernel("\t// ptxlint: disable-next-line=ISA004\n\tmov.u32 %r1, %r9;\n\tadd.s32 %r1, %r1, 1\n\tret;");
  LintOptions options;
  options.maxTextBytes = text.size() / 2;
  LintResult limited = lintText(text, options);
  LintResult whole = lintText(text);
  auto codes = [](const LintResult& result) {
    std::vector<std::string> out;
    for (const Diagnostic& diagnostic : result.diagnostics) out.push_back(diagnostic.rule);
    return out;
  };
  CHECK(codes(limited) == std::vector<std::string>{"SYN007", "SYN001"});
  CHECK(limited.diagnostics[0].severity == Severity::Information);
  std::vector<std::string> analyzed = codes(whole);
  // With the rules run, the suppression silenced nothing (LNT001); without them that proves nothing.
  CHECK(analyzed == std::vector<std::string>{"LNT001", "SYN001"});
  // The names are resolved: %r9 is a use the model recorded, with no declaration.
  CHECK(!limited.module.references.empty());
  CHECK(limited.module.functions.size() == 1);
}

TEST_CASE("A run of comment lines longer than tree-sitter 0.20 can free is refused with a note, not a crash",
          "[robustness]") {
  // 65,534 comment lines in a row abort the process when tree-sitter 0.20.7 frees the tree.
  std::string text = test::kernel("\tret;");
  for (int i = 0; i < 70000; ++i) text += "// generated comment\n";
  LintResult result = lintText(text);
  REQUIRE(result.diagnostics.size() == 1);
  CHECK(result.diagnostics[0].rule == "SYN007");
  CHECK(result.diagnostics[0].severity == Severity::Information);
  CHECK(!result.tree.isComplete());
  // Comments broken by a declaration now and then parse, and so does an edit that makes the
  // run short again.
  std::string broken = test::kernel("\tret;");
  for (int i = 0; i < 70000; ++i) broken += i % 35000 == 34999 ? ".global .b32 g" + std::to_string(i) + ";\n" : "// c\n";
  CHECK(lintText(broken).diagnostics.empty());
  CHECK(longestExtrasRun(broken) == 34999);
  SyntaxTree parsed = parseSyntax(broken);
  REQUIRE(parsed.isComplete());
  std::string joined = broken;
  std::size_t cut = joined.find(".global .b32 g34999;\n");
  joined.erase(cut, std::string_view(".global .b32 g34999;\n").size());
  SyntaxEdit edit = describeEdit(broken, static_cast<std::uint32_t>(cut),
                                 static_cast<std::uint32_t>(cut + std::string_view(".global .b32 g34999;\n").size()), "");
  SyntaxTree reparsed = reparseSyntax(parsed, joined, edit);
  CHECK(!reparsed.isComplete());
  CHECK(reparsed.refusedForExtrasRun());
}
// Formatter: the layout of small cases, safety on broken input, range formatting, and over
// every corpus file: idempotence, the same tokens, and no new syntax errors.
#include "format/Formatter.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <ctime>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "TestSupport.h"
#include "syntax/SyntaxTree.h"

using namespace ptx;
namespace fs = std::filesystem;

namespace {

std::string format(std::string_view text, const FormatOptions& options = {}) {
  return formatText(text, parseSyntax(text), options);
}

std::string applyEdits(std::string_view text, const std::vector<TextEdit>& edits) {
  std::string out;
  std::uint32_t at = 0;
  for (const TextEdit& edit : edits) {
    out += text.substr(at, edit.range.begin - at);
    out += edit.newText;
    at = edit.range.end;
  }
  out += text.substr(at);
  return out;
}

// The texts of the tree's leaves (comments included), in order.
std::vector<std::string_view> leafTexts(std::string_view text, const SyntaxTree& tree) {
  std::vector<std::string_view> leaves;
  TSTreeCursor cursor = ts_tree_cursor_new(tree.root());
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    if (ts_node_child_count(node) == 0) {
      std::uint32_t begin = ts_node_start_byte(node);
      std::uint32_t end = ts_node_end_byte(node);
      if (end > begin) leaves.push_back(text.substr(begin, end - begin));
    } else if (ts_tree_cursor_goto_first_child(&cursor)) {
      continue;
    }
    bool done = false;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        done = true;
        break;
      }
    }
    if (done) break;
  }
  ts_tree_cursor_delete(&cursor);
  return leaves;
}

// ERROR and MISSING nodes in the tree.
std::size_t errorCount(const SyntaxTree& tree) {
  std::size_t count = 0;
  std::vector<TSNode> stack{tree.root()};
  while (!stack.empty()) {
    TSNode node = stack.back();
    stack.pop_back();
    if (!ts_node_has_error(node)) continue;
    if (ts_node_is_missing(node) || std::string_view(ts_node_type(node)) == "ERROR") ++count;
    std::uint32_t children = ts_node_child_count(node);
    for (std::uint32_t i = 0; i < children; ++i) stack.push_back(ts_node_child(node, i));
  }
  return count;
}

// The first line where two texts differ, for readable failures.
std::string firstDifference(std::string_view a, std::string_view b) {
  std::size_t at = 0;
  while (at < a.size() && at < b.size() && a[at] == b[at]) ++at;
  std::size_t lineStart = a.rfind('\n', at == 0 ? 0 : at - 1);
  lineStart = lineStart == std::string_view::npos ? 0 : lineStart + 1;
  auto line = [&](std::string_view s) {
    std::size_t end = s.find('\n', lineStart);
    return std::string(
        s.substr(lineStart, end == std::string_view::npos ? s.npos : end - lineStart));
  };
  return "line " + std::to_string(std::count(a.begin(), a.begin() + lineStart, '\n') + 1) +
         ":\n  " + line(a) + "\n  " + line(b);
}

// Checks the three corpus properties on one file; logs and returns false on failure.
bool formatsSafely(const fs::path& path, std::string_view text) {
  SyntaxTree tree = parseSyntax(text);
  std::string once = formatText(text, tree);
  SyntaxTree onceTree = parseSyntax(once);
  std::string twice = formatText(once, onceTree);
  bool ok = true;
  if (twice != once) {
    UNSCOPED_INFO(path.string() << ": not idempotent at " << firstDifference(once, twice));
    ok = false;
  }
  if (leafTexts(text, tree) != leafTexts(once, onceTree)) {
    UNSCOPED_INFO(path.string() << ": the token sequence changed");
    ok = false;
  }
  if (errorCount(onceTree) > errorCount(tree)) {
    UNSCOPED_INFO(path.string() << ": formatting added syntax errors");
    ok = false;
  }
  if (applyEdits(text, formatEdits(text, tree)) != once) {
    UNSCOPED_INFO(path.string() << ": the edits do not give the formatted text");
    ok = false;
  }
  return ok;
}

std::vector<fs::path> ptxFilesUnder(const fs::path& root) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    std::string name = entry.path().filename().string();
    bool isPtx = name.size() > 4 && name.compare(name.size() - 4, 4, ".ptx") == 0;
    bool isCompressedPtx = name.size() > 7 && name.compare(name.size() - 7, 7, ".ptx.xz") == 0;
    if (isPtx || isCompressedPtx) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("Messy indentation and spacing are laid out like nvcc output", "[format]") {
  std::string messy =
      "   .version 8.0\n"
      ".target   sm_80\n"
      "  .address_size 64\n"
      "\n"
      "\n"
      "\n"
      "\n"
      ".visible .entry  k ( .param .u64 k_param_0 , .param .u32 k_param_1 )\n"
      "{\n"
      ".reg .pred %p<3>;\n"
      "      .reg   .b32  %r<9> ;\n"
      "  .shared .align 4 .b8 buf[16];   \n"
      "ld.param.u64   %rd1,[k_param_0];\n"
      "     @!%p1   bra   $L__BB0_2;\n"
      "  add.s32 %r1,%r2 ,  - 1;   // decrement\n"
      "ld.global.u32 %r3, [ %rd1 + -4 ];\n"
      "$L__BB0_2: mov.u32 %r4, %tid.x;\n"
      "  { .reg .b32 t;\n"
      "  mov.b32 t, {%r1,%r2};\n"
      "    }\n"
      "ret;}\n";
  std::string expected =
      ".version 8.0\n"
      ".target sm_80\n"
      ".address_size 64\n"
      "\n"
      "\n"
      ".visible .entry k(\n"
      "\t.param .u64 k_param_0,\n"
      "\t.param .u32 k_param_1\n"
      ")\n"
      "{\n"
      "\t.reg .pred \t%p<3>;\n"
      "\t.reg .b32 \t%r<9>;\n"
      "\t.shared .align 4 .b8 buf[16];\n"
      "\tld.param.u64 \t%rd1, [k_param_0];\n"
      "\t@!%p1 bra \t$L__BB0_2;\n"
      "\tadd.s32 \t%r1, %r2, -1; // decrement\n"
      "\tld.global.u32 \t%r3, [%rd1+-4];\n"
      "$L__BB0_2:\n"
      "\tmov.u32 \t%r4, %tid.x;\n"
      "\t{\n"
      "\t\t.reg .b32 t;\n"
      "\t\tmov.b32 \tt, {%r1, %r2};\n"
      "\t}\n"
      "\tret;\n"
      "}\n";
  CHECK(format(messy) == expected);
  CHECK(format(expected) == expected);
}

TEST_CASE("Options choose spaces, the operand separator, commas and blank lines", "[format]") {
  std::string text = test::kernel("mov.u32 %r1,%r2;\n\n\n\nret;");
  FormatOptions options;
  options.useTabs = false;
  options.indentWidth = 2;
  options.operandSeparator = OperandSeparator::Space;
  options.spaceAfterComma = false;
  options.maxBlankLines = 1;
  std::string formatted = format(text, options);
  CHECK(formatted.find("\n  mov.u32 %r1,%r2;\n\n  ret;\n}") != std::string::npos);
}

TEST_CASE("Calls, prototypes and initializers keep nvcc's spelling", "[format]") {
  std::string text =
      ".version 8.0\n.target sm_80\n.address_size 64\n"
      ".global .align 8 .u64 table[2] = {f,g};\n"
      ".func  (.param .b32 func_retval0) f\n(\n\t.param .b32 f_param_0\n)\n;\n"
      ".visible .entry k()\n.maxntid 128, 1, 1\n{\n"
      "\t{ // callseq 0, 0\n"
      "\t.param .b32 param0;\n"
      "\tprototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
      "\tcall (retval0), \n\t%rd1, \n\t(\n\tparam0\n\t)\n\t, prototype_0;\n"
      "\t} // callseq 0\n"
      "}\n";
  std::string expected =
      ".version 8.0\n.target sm_80\n.address_size 64\n"
      ".global .align 8 .u64 table[2] = {f, g};\n"
      ".func (.param .b32 func_retval0) f(\n\t.param .b32 f_param_0\n);\n"
      ".visible .entry k()\n.maxntid 128, 1, 1\n{\n"
      "\t{ // callseq 0, 0\n"
      "\t\t.param .b32 param0;\n"
      "\t\tprototype_0: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
      "\t\tcall \t(retval0), %rd1, (param0), prototype_0;\n"
      "\t} // callseq 0\n"
      "}\n";
  CHECK(format(text) == expected);
}

TEST_CASE("Comments keep their lines and content, .loc keeps its bytes", "[format]") {
  std::string text = test::kernel(
      "      // own line, re-indented   \n"
      "  .loc\t1 25   0\n"
      "mov.u32 %r1, /* inline */ %r2;\n"
      "/* block\n   keeps its inside */\n"
      "ret;");
  std::string formatted = format(text);
  CHECK(formatted.find("\n\t// own line, re-indented   \n") != std::string::npos);
  CHECK(formatted.find("\n\t.loc\t1 25   0\n") != std::string::npos);
  CHECK(formatted.find("\n\tmov.u32 \t%r1, /* inline */ %r2;\n") != std::string::npos);
  CHECK(formatted.find("\n\t/* block\n   keeps its inside */\n\tret;") != std::string::npos);
}

TEST_CASE("A statement with a syntax error is kept byte for byte", "[format]") {
  std::string broken = "   mov.u32   %r1 %r2 ,,, ;   ";
  std::string text = test::kernel("  add.s32   %r1,%r2,%r3;\n" + broken + "\n     ret;");
  SyntaxTree tree = parseSyntax(text);
  REQUIRE(ts_node_has_error(tree.root()));
  std::string formatted = formatText(text, tree);
  CHECK(formatted.find("\tadd.s32 \t%r1, %r2, %r3;\n") != std::string::npos);
  CHECK(formatted.find("\n" + broken + "\n") != std::string::npos);
  CHECK(formatted.find("\n\tret;\n") != std::string::npos);
  CHECK(format(formatted) == formatted);
}

TEST_CASE("A file that is mostly garbage is left as it is", "[format]") {
  std::string text = "  }}} .entry ( { mov ;;\n\t\t@@ \"unterminated\n";
  CHECK(format(text) == text);
}

TEST_CASE("Range formatting changes only the statements in the range", "[format]") {
  std::string text =
      test::kernel("  mov.u32   %r1,%r2;   \n  mov.u32   %r3,%r4;   \n  mov.u32   %r5,%r6;");
  SyntaxTree tree = parseSyntax(text);
  auto second = static_cast<std::uint32_t>(text.find("mov.u32   %r3"));
  std::vector<TextEdit> edits = formatEdits(text, tree, {}, ByteRange{second, second + 5});
  std::string result = applyEdits(text, edits);
  CHECK(result.find("\n  mov.u32   %r1,%r2;   \n\tmov.u32 \t%r3, %r4;\n  mov.u32   %r5,%r6;") !=
        std::string::npos);
  for (const TextEdit& edit : edits) {
    CHECK(edit.range.begin >= text.rfind('\n', second));
    CHECK(edit.range.end <= text.find('\n', second));
  }
}

TEST_CASE("Document edits are minimal and give the formatted text", "[format]") {
  std::string text = test::kernel("\tmov.u32 \t%r1, %r2;\n  ret;");
  SyntaxTree tree = parseSyntax(text);
  std::vector<TextEdit> edits = formatEdits(text, tree);
  REQUIRE(edits.size() == 1);
  CHECK(edits[0].newText == "\t");
  CHECK(applyEdits(text, edits) == formatText(text, tree));
  CHECK(formatEdits(formatText(text, tree), parseSyntax(formatText(text, tree))).empty());
}

TEST_CASE("CRLF files stay CRLF and a BOM stays in place", "[format]") {
  std::string text =
      "\xEF\xBB\xBF.version 8.0\r\n.target sm_80 // t\r\n.address_size 64\r\n"
      ".visible .entry k()\r\n{\r\n  ret;\r\n}";
  std::string expected =
      "\xEF\xBB\xBF.version 8.0\r\n.target sm_80 // t\r\n.address_size 64\r\n"
      ".visible .entry k()\r\n{\r\n\tret;\r\n}\r\n";
  CHECK(format(text) == expected);
  CHECK(format(expected) == expected);
}

TEST_CASE("Tokens that would run together keep a space", "[format]") {
  // `%` before a name is a modulo only with a space: `a %r2` and `a%r2` parse differently.
  std::string text = test::kernel(".reg .b32 x[4 % y];\nadd.s32 %r1, %r2, - -1;");
  std::string formatted = format(text);
  CHECK(formatted.find("x[4 % y]") != std::string::npos);
  CHECK(formatted.find("%r2, - -1;") != std::string::npos);
}

TEST_CASE("An incomplete parse leaves the text unchanged", "[format]") {
  SyntaxTree empty;
  CHECK(formatText("  ret;", empty) == "  ret;");
  CHECK(formatEdits("  ret;", empty).empty());
}

TEST_CASE("A file whose statements the parse cannot find is kept as it is", "[format]") {
  // A Triton kernel cut off inside its body, with a stray brace after a `.loc`: the root of
  // the tree is an error, its pieces are no statements, and laying them out one per line
  // would not be idempotent (found by the random-damage test below).
  std::string text = test::readFile(test::sourceDir() /
                                    "corpus/triton/ptx/attention.flash_attn_bwd_fp16_causal.attn_bwd_dq_kernel.ptx")
                         .substr(0, 20000);
  std::size_t loc = text.find("\t.loc\t1 119 27 ");
  REQUIRE(loc != std::string::npos);
  text.insert(loc + std::string_view("\t.loc\t1 119 27 ").size(), "{");
  SyntaxTree tree = parseSyntax(text);
  REQUIRE(std::string_view(ts_node_type(tree.root())) == "ERROR");
  CHECK(formatText(text, tree) == text);
  CHECK(formatEdits(text, tree).empty());
}

TEST_CASE("Formatting every corpus file is idempotent and keeps every token", "[format][shared]") {
  std::vector<fs::path> files = ptxFilesUnder(test::sourceDir() / "corpus");
  if (auto shared = test::sharedDir()) {
    std::vector<fs::path> sharedFiles = ptxFilesUnder(*shared / "corpus");
    files.insert(files.end(), sharedFiles.begin(), sharedFiles.end());
  } else {
    WARN("../shared/corpus is absent: only the project's own corpus is checked");
  }
  std::size_t failed = 0;
  for (const fs::path& path : files) {
    if (!formatsSafely(path, test::readMaybeCompressed(path))) ++failed;
  }
  INFO(files.size() << " files");
  CHECK(files.size() >= 70);
  CHECK(failed == 0);
}

TEST_CASE("Files broken at random keep every token and format idempotently", "[format]") {
  // Deterministic damage to real files: deleted runs, stray braces, quotes and comment openers.
  std::vector<fs::path> files = ptxFilesUnder(test::sourceDir() / "corpus");
  REQUIRE(files.size() >= 10);
  std::mt19937 random(20240601);
  static constexpr std::string_view kInserts[] = {"{",  "}",  ";",      ",", "(", "\"",
                                                  "/*", "\n", " .reg ", "@", "%"};
  std::size_t failed = 0;
  for (std::size_t f = 0; f < 10; ++f) {
    std::string original = test::readFile(files[f * files.size() / 10]).substr(0, 20000);
    for (int mutant = 0; mutant < 5; ++mutant) {
      std::string text = original;
      for (int damage = 0; damage < 3; ++damage) {
        std::size_t at = random() % text.size();
        if (random() % 2 == 0) {
          text.erase(at, 1 + random() % 10);
        } else {
          text.insert(at, kInserts[random() % std::size(kInserts)]);
        }
      }
      SyntaxTree tree = parseSyntax(text);
      std::string once = formatText(text, tree);
      SyntaxTree onceTree = parseSyntax(once);
      bool ok =
          leafTexts(text, tree) == leafTexts(once, onceTree) && formatText(once, onceTree) == once;
      if (!ok) {
        UNSCOPED_INFO("mutant " << mutant << " of " << files[f * files.size() / 10].string());
        ++failed;
      }
    }
  }
  CHECK(failed == 0);
}

TEST_CASE("Formatting a 4 MB file takes well under a second", "[format][shared]") {
  auto shared = test::sharedDir();
  if (!shared) {
    WARN("skipped: ../shared/corpus is absent");
    return;
  }
  std::string text = test::readFile(*shared / "corpus/gpuocelot/tests/ptx/thrust/Sort.ptx");
  // Processor time, not wall time: the figure should not depend on what else the machine runs.
  auto seconds = [](std::clock_t from) {
    return static_cast<double>(std::clock() - from) / CLOCKS_PER_SEC;
  };
  std::clock_t start = std::clock();
  SyntaxTree tree = parseSyntax(text);
  double parse = seconds(start);
  start = std::clock();
  std::string formatted = formatText(text, tree);
  double format = seconds(start);
  WARN("Sort.ptx (" << text.size() << " bytes): parsed in " << parse * 1000 << " ms, formatted in "
                    << format * 1000 << " ms of processor time");
  CHECK(format < 1.0);
}

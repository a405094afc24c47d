// SyntaxTree: parsing never fails; incremental reparse equals a full parse.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <random>
#include <string>

#include "TestSupport.h"
#include "syntax/SyntaxKinds.h"
#include "syntax/SyntaxTree.h"

using namespace ptx;

namespace {

std::string sexp(const SyntaxTree& tree) {
  char* raw = ts_node_string(tree.root());
  std::string text = raw;
  std::free(raw);
  return text;
}

}  // namespace

TEST_CASE("Every grammar symbol the core uses resolves", "[syntax]") {
  CHECK(syntaxKinds().complete());
}

TEST_CASE("A valid module parses without errors into the expected shape", "[syntax]") {
  std::string text = test::kernel("  .reg .b32 %r<4>;\n  @!%p1 ld.global.u32 %r1, [%rd1+-4];\n");
  SyntaxTree tree = parseSyntax(text);
  REQUIRE(tree.isComplete());
  CHECK_FALSE(ts_node_has_error(tree.root()));
  std::string shape = sexp(tree);
  CHECK(shape.find("(instruction guard: (guard predicate: (identifier)) opcode: (opcode) "
                   "modifier: (modifier) modifier: (modifier) operand: (identifier) "
                   "operand: (address base: (identifier) offset: (unary_expression "
                   "operand: (integer_literal))))") != std::string::npos);
}

TEST_CASE("A byte-order mark does not disturb the parse or the offsets", "[syntax]") {
  std::string text = "\xEF\xBB\xBF" + test::kernel("  ret;");
  SyntaxTree tree = parseSyntax(text);
  CHECK_FALSE(ts_node_has_error(tree.root()));
  TSNode first = ts_node_named_child(tree.root(), 0);
  CHECK(ts_node_start_byte(first) == 3);
}

TEST_CASE("Incremental reparse matches a full parse after random edits", "[syntax]") {
  std::string text = test::kernel(
      "  .reg .b32 %r<4>;\n  mov.u32 %r1, %tid.x;\n  add.s32 %r2, %r1, 4;\n"
      "$L__BB0_1:\n  setp.lt.s32 %p1, %r2, 10;\n  @%p1 bra $L__BB0_1;\n  ret;");
  const char* insertions[] = {";", "}", "{", "x", " ", "\n", ".", "[", "%r9, ", "// c\n"};
  std::mt19937 random(1234);
  SyntaxTree tree = parseSyntax(text);
  for (int step = 0; step < 200; ++step) {
    auto begin = static_cast<std::uint32_t>(random() % (text.size() + 1));
    auto length = static_cast<std::uint32_t>(random() % 4);
    auto end = std::min<std::uint32_t>(begin + length, static_cast<std::uint32_t>(text.size()));
    std::string inserted = step % 3 == 0 ? "" : insertions[random() % std::size(insertions)];
    SyntaxEdit edit = describeEdit(text, begin, end, inserted);
    text.replace(begin, end - begin, inserted);
    SyntaxTree next = reparseSyntax(tree, text, edit);
    SyntaxTree full = parseSyntax(text);
    INFO("step " << step << "\n" << text);
    REQUIRE(sexp(next) == sexp(full));
    tree = next;
  }
}

TEST_CASE("A cancelled parse yields an empty, incomplete tree", "[syntax]") {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "  add.s32 %r1, %r1, 1;\n";
  text = test::kernel(text);
  std::atomic<std::size_t> cancelled{1};
  ParseOptions options;
  options.cancellation = &cancelled;
  SyntaxTree tree = parseSyntax(text, options);
  CHECK_FALSE(tree.isComplete());
  CHECK_FALSE(ts_node_is_null(tree.root()));
  CHECK(ts_node_child_count(tree.root()) == 0);
}

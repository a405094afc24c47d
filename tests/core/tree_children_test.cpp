// TreeChildren reads tree-sitter's tree directly; it must give exactly the children, fields and
// positions the public TSTreeCursor gives, on every kind of tree the project builds: plain and
// chunk-bounded parses, chunked (joined) parses, incremental reparses, error-recovered parses of
// broken text, and the CUDA grammar's trees.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "TestSupport.h"
#include "cuda/CudaSyntax.h"
#include "syntax/SyntaxTree.h"
#include "syntax/TreeChildren.h"

using namespace ptx;

namespace {

struct ChildFacts {
  const void* id;
  TSSymbol symbol;
  std::uint32_t startByte, endByte;
  std::uint32_t startRow, startColumn, endRow, endColumn;
  bool named, missing, extra;
  TSFieldId field;

  bool operator==(const ChildFacts&) const = default;
};

// `direct`: the end byte from nodeEndByte (TreeChildren.h) rather than ts_node_end_byte.
ChildFacts factsOf(TSNode node, TSFieldId field, bool direct = false) {
  return {node.id,
          ts_node_symbol(node),
          ts_node_start_byte(node),
          direct ? nodeEndByte(node) : ts_node_end_byte(node),
          ts_node_start_point(node).row,
          ts_node_start_point(node).column,
          ts_node_end_point(node).row,
          ts_node_end_point(node).column,
          ts_node_is_named(node),
          ts_node_is_missing(node),
          ts_node_is_extra(node),
          field};
}

std::string describe(const ChildFacts& facts) {
  return "symbol " + std::to_string(facts.symbol) + " bytes " + std::to_string(facts.startByte) + "-" +
         std::to_string(facts.endByte) + " at " + std::to_string(facts.startRow) + ":" +
         std::to_string(facts.startColumn) + " field " + std::to_string(facts.field);
}

struct Comparison {
  std::size_t nodes = 0;
  std::size_t fieldQueries = 0;
  std::size_t mismatches = 0;
  std::string firstMismatch;
};

// Compares the two walks below `root`, node by node (iteratively: trees of big files are deep
// only through hidden nodes, but the comparison must not depend on that).
void compareBelow(TSNode root, std::uint32_t fieldCount, bool everyField, Comparison& result) {
  std::vector<TSNode> pending{root};
  while (!pending.empty()) {
    TSNode node = pending.back();
    pending.pop_back();
    ++result.nodes;
    std::vector<ChildFacts> byCursor;
    std::vector<TSNode> children;
    TSTreeCursor cursor = ts_tree_cursor_new(node);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      do {
        TSNode child = ts_tree_cursor_current_node(&cursor);
        byCursor.push_back(factsOf(child, ts_tree_cursor_current_field_id(&cursor)));
        children.push_back(child);
      } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    std::vector<ChildFacts> direct;
    forEachVisibleChildWhile(node, [&](TSNode child, TSFieldId field) {
      direct.push_back(factsOf(child, field, true));
      return true;
    });
    if (byCursor != direct) {
      if (result.mismatches++ == 0) {
        std::size_t i = 0;
        while (i < byCursor.size() && i < direct.size() && byCursor[i] == direct[i]) ++i;
        result.firstMismatch = "below symbol " + std::to_string(ts_node_symbol(node)) + " at byte " +
                               std::to_string(ts_node_start_byte(node)) + ", child " + std::to_string(i) + ": cursor " +
                               (i < byCursor.size() ? describe(byCursor[i]) : "none") + ", direct " +
                               (i < direct.size() ? describe(direct[i]) : "none");
      }
    }
    // ts_node_child_by_field_id agrees with childWithField for the fields present (and, when
    // asked, for every field of the language, absent ones included).
    auto checkField = [&](TSFieldId field) {
      ++result.fieldQueries;
      TSNode expected = ts_node_child_by_field_id(node, field);
      TSNode actual = childWithField(node, field);
      if (expected.id != actual.id || ts_node_start_byte(expected) != ts_node_start_byte(actual)) {
        if (result.mismatches++ == 0) {
          result.firstMismatch = "field " + std::to_string(field) + " below symbol " +
                                 std::to_string(ts_node_symbol(node)) + " at byte " +
                                 std::to_string(ts_node_start_byte(node));
        }
      }
    };
    if (everyField) {
      for (TSFieldId field = 1; field <= fieldCount; ++field) checkField(field);
    } else {
      for (const ChildFacts& facts : byCursor) {
        if (facts.field != 0) checkField(facts.field);
      }
    }
    pending.insert(pending.end(), children.rbegin(), children.rend());
  }
}

Comparison compareTree(const TSTree* tree, bool everyField) {
  Comparison result;
  if (tree == nullptr) return result;
  compareBelow(ts_tree_root_node(tree), ts_language_field_count(ts_tree_language(tree)), everyField, result);
  return result;
}

// Broken variants of a text: cut at a few places, and with bytes overwritten.
std::vector<std::string> brokenVariants(const std::string& text, std::mt19937& random) {
  std::vector<std::string> variants;
  if (text.empty()) return variants;
  for (int i = 0; i < 3; ++i) variants.push_back(text.substr(0, random() % text.size()));
  std::string garbled = text;
  for (int i = 0; i < 40; ++i) garbled[random() % garbled.size()] = static_cast<char>(random() % 128);
  variants.push_back(garbled);
  return variants;
}

}  // namespace

TEST_CASE("The direct child walk equals the tree cursor on hand-written trees", "[syntax][tree_children]") {
  const char* texts[] = {
      ".version 8.0\n.target sm_90a\n.address_size 64\n"
      ".visible .entry k(.param .u64 p, .param .align 8 .b8 buf[16])\n.maxntid 128, 1, 1\n{\n"
      "  .reg .b32 %r<4>; .reg .pred %p<2>;\n  // a comment\n"
      "  @!%p1 ld.global.v2.u32 {%r1, %r2}, [%rd1+-4];\n  setp.lt.s32 %p1|%p0, %r1, 4;\n"
      "  tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex, {%f5, %f6}];\n  call.uni (%r1), f, (%r2, %r3);\n"
      "L1: /* inline */ bra L1;\n  { .reg .b32 %t; mov.b32 %t, %tid.x; }\n  ret;\n}\n",
      ".global .align 4 .b32 table[4] = {1, 2, 3, 4};\n.entry e {\n  mov.u32 %r1, 1 + 2 * (3 - 1);\n  ret\n}\n",
      "garbage ((( ]]] .entry {\n @ bra ; ld.global [ ;\n",
      "",
  };
  for (const char* text : texts) {
    for (bool chunks : {true, false}) {
      ParseOptions options;
      options.chunkBoundaries = chunks;
      SyntaxTree tree = parseSyntax(text, options);
      Comparison result = compareTree(tree.raw(), true);
      INFO(text);
      INFO(result.firstMismatch);
      CHECK(result.mismatches == 0);
    }
  }
}

TEST_CASE("The direct child walk equals the tree cursor over the corpus, broken and reparsed texts included",
          "[syntax][tree_children]") {
  std::vector<std::filesystem::path> files = test::corpusPtxFiles({"corpus"});
  if (files.empty()) {
    WARN("skipped: no PTX corpus files found");
    return;
  }
  std::mt19937 random(23);
  Comparison total;
  std::size_t checked = 0;
  std::size_t index = 0;
  for (const auto& path : files) {
    // Every file under 64 KB and every eighth larger one keep the test to seconds.
    bool large = std::filesystem::file_size(path) > 64 * 1024;
    if (large && index++ % 8 != 0) continue;
    std::string text = test::readMaybeCompressed(path);
    ++checked;
    INFO(path.string());
    ParseOptions bounded;
    ParseOptions plain;
    plain.chunkBoundaries = false;
    SyntaxTree tree = parseSyntax(text, bounded);
    Comparison result = compareTree(tree.raw(), text.size() < 16 * 1024);
    {
      INFO(result.firstMismatch);
      CHECK(result.mismatches == 0);
    }
    total.nodes += result.nodes;
    total.fieldQueries += result.fieldQueries;
    if (large) {
      // The joined pieces of a chunked parse, and a reparse after an edit in the middle.
      SyntaxTree chunked = parseSyntaxChunked(text, plain, 2, 64 * 1024);
      Comparison joined = compareTree(chunked.raw(), false);
      INFO(joined.firstMismatch);
      CHECK(joined.mismatches == 0);
      std::uint32_t at = static_cast<std::uint32_t>(text.size() / 2);
      SyntaxEdit edit = describeEdit(text, at, at + 1, "x");
      std::string edited = text.substr(0, at) + "x" + text.substr(at + 1);
      SyntaxTree reparsed = reparseSyntax(tree, edited, std::span<const SyntaxEdit>(&edit, 1), bounded);
      Comparison incremental = compareTree(reparsed.raw(), false);
      INFO(incremental.firstMismatch);
      CHECK(incremental.mismatches == 0);
    } else if (text.size() < 16 * 1024) {
      for (const std::string& variant : brokenVariants(text, random)) {
        SyntaxTree broken = parseSyntax(variant, plain);
        Comparison recovered = compareTree(broken.raw(), true);
        INFO(recovered.firstMismatch);
        CHECK(recovered.mismatches == 0);
        total.nodes += recovered.nodes;
      }
    }
  }
  INFO(checked << " files, " << total.nodes << " nodes, " << total.fieldQueries << " field queries");
  CHECK(total.nodes > 100000);
}

TEST_CASE("The direct child walk equals the tree cursor on CUDA trees", "[syntax][tree_children]") {
  std::filesystem::path cases = test::sourceDir() / "tests" / "cuda" / "cases";
  std::size_t checked = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(cases)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".cu") continue;
    std::string text = test::readFile(entry.path());
    cuda::CudaSyntaxTree tree = cuda::parseCudaSyntax(text);
    Comparison result = compareTree(tree.raw(), true);
    INFO(entry.path().string());
    INFO(result.firstMismatch);
    CHECK(result.mismatches == 0);
    ++checked;
  }
  CHECK(checked > 10);
}

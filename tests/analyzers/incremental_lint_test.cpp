// Incremental re-analysis (relintChangedFunction) must report exactly what a full run
// reports: random edits inside function bodies of real files, each checked against lintText,
// on one thread and on two (the server's re-check).
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "Lint.h"
#include "TestSupport.h"
#include "syntax/SyntaxKinds.h"

using namespace ptx;

namespace {

std::string describeAll(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) {
    out += d.rule + " [" + std::to_string(d.range.begin) + "," + std::to_string(d.range.end) + ") " +
           std::string(toString(d.severity)) + " " + d.message;
    for (const RelatedInformation& r : d.related) {
      out += " {" + std::to_string(r.range.begin) + "," + std::to_string(r.range.end) + " " + r.message + "}";
    }
    for (const Fix& fix : d.fixes) {
      out += " fix '" + fix.title + "'";
      for (const FixEdit& e : fix.edits) {
        out += " [" + std::to_string(e.range.begin) + "," + std::to_string(e.range.end) + ")='" + e.newText + "'";
      }
    }
    out += "\n";
  }
  return out;
}

// Byte ranges of every function body's inside (between its braces).
std::vector<ByteRange> bodyInsides(const SyntaxTree& tree) {
  std::vector<ByteRange> bodies;
  const SyntaxKinds& kinds = syntaxKinds();
  TSNode root = tree.root();
  for (std::uint32_t i = 0; i < ts_node_child_count(root); ++i) {
    TSNode item = ts_node_child(root, i);
    if (ts_node_symbol(item) != kinds.functionDefinition) continue;
    TSNode body = ts_node_child_by_field_id(item, kinds.fields.body);
    if (ts_node_is_null(body)) continue;
    if (ts_node_end_byte(body) - ts_node_start_byte(body) > 2) {
      bodies.push_back({ts_node_start_byte(body) + 1, ts_node_end_byte(body) - 1});
    }
  }
  return bodies;
}

struct Edit {
  std::uint32_t begin, end;
  std::string inserted;
};

// Applies `edit` to `text` incrementally from `previous`, checks the result against a full
// run, and returns the analysis to continue from. Counts the incremental successes.
LintResult applyAndCheck(std::string& text, const LintResult& previous, const Edit& edit, int& incremental) {
  SyntaxEdit syntaxEdit = describeEdit(text, edit.begin, edit.end, edit.inserted);
  std::string next = text;
  next.replace(edit.begin, edit.end - edit.begin, edit.inserted);
  SyntaxTree tree = reparseSyntax(previous.tree, next, syntaxEdit);
  ChangedSpan span{edit.begin, edit.end, static_cast<std::uint32_t>(edit.begin + edit.inserted.size())};
  std::optional<LintResult> quick = relintChangedFunction(next, tree, previous, span);
  // The server's re-check: on two threads, whatever the function's size.
  LintOptions threaded;
  threaded.threads = 2;
  threaded.parallelRecheckBytes = 0;
  std::optional<LintResult> quickThreaded = relintChangedFunction(next, tree, previous, span, threaded);
  LintResult full = lintText(next);
  text = std::move(next);
  REQUIRE(quick.has_value() == quickThreaded.has_value());
  if (!quick) return full;
  ++incremental;
  INFO("edit at " << edit.begin << " replacing " << (edit.end - edit.begin) << " bytes with '" << edit.inserted << "'");
  REQUIRE(describeAll(quick->diagnostics) == describeAll(full.diagnostics));
  REQUIRE(describeAll(quickThreaded->diagnostics) == describeAll(full.diagnostics));
  CHECK(quick->focus.has_value());
  return std::move(*quick);
}

// Makes `count` random edits inside function bodies, each followed by its undo (a typo and
// its fix), chaining incremental results; every step is compared with a full run. Returns
// how many steps took the incremental path.
int checkRandomEdits(std::string text, int count, std::uint32_t seed) {
  std::mt19937 random(seed);
  const std::vector<std::string> insertions = {" ",  "x",  "1", ";", "\n\tadd.s32 %r1, %r2, 3;",
                                               "\n\tbra $Lnowhere;", "%", ".", "{", "@",
                                               "\n\tld.globl.u32 %r1, [%rd1];", "\n$Lnew:"};
  LintResult previous = lintText(text);
  int incremental = 0;
  for (int n = 0; n < count; ++n) {
    std::vector<ByteRange> bodies = bodyInsides(previous.tree);
    if (bodies.empty()) break;
    ByteRange body = bodies[random() % bodies.size()];
    auto at = static_cast<std::uint32_t>(body.begin + random() % (body.end - body.begin));
    Edit edit{at, at, {}};
    if (random() % 3 == 0) {
      edit.end = std::min<std::uint32_t>(at + 1 + random() % 4, body.end);
    } else {
      edit.inserted = insertions[random() % insertions.size()];
    }
    std::string removed = text.substr(edit.begin, edit.end - edit.begin);
    previous = applyAndCheck(text, previous, edit, incremental);
    Edit undo{edit.begin, static_cast<std::uint32_t>(edit.begin + edit.inserted.size()), removed};
    previous = applyAndCheck(text, previous, undo, incremental);
  }
  return incremental;
}

}  // namespace

TEST_CASE("ChangedSpan merges a burst of edits into one span", "[incremental]") {
  // "abcdef": replace [1,2) with "XY" → "aXYcdef"; then delete [5,6) of that → "aXYcef".
  ChangedSpan span{1, 2, 3};
  span = span.then(5, 6, 0);
  CHECK(span.begin == 1);
  CHECK(span.oldEnd == 5);  // old "bcde" ...
  CHECK(span.newEnd == 5);  // ... became "XYce"
  // An edit before the span widens it to the left.
  ChangedSpan left = ChangedSpan{10, 12, 15}.then(2, 3, 1);
  CHECK(left.begin == 2);
  CHECK(left.oldEnd == 12);
  CHECK(left.newEnd == 15);
}

TEST_CASE("Incremental re-analysis matches a full run on edits inside function bodies", "[incremental]") {
  // A suppression region that spans both functions: incremental results must honour it.
  std::string text = test::kernel(
      "\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<3>;\n\t.reg .pred %p<2>;\n\t// ptxlint: disable=ISA004\n"
      "\tadd.s32 %r1, %r2, 1;\n\tsetp.eq.s32 %p1, %r1, 0;\n\t@%p1 bra $L1;\n"
      "\tld.global.u32 %r3, [%rd1];\n$L1:\n\tret;\n");
  text += ".visible .func (.reg .b32 out) f(.reg .b32 in)\n{\n\tmov.b32 out, in;\n\tret;\n}\n";
  CHECK(checkRandomEdits(text, 150, 1) > 150);
}

TEST_CASE("Incremental re-analysis matches a full run on corpus files", "[incremental][corpus]") {
  auto shared = test::sharedDir();
  if (!shared) {
    WARN("shared corpus absent: skipped");
    return;
  }
  const char* files[] = {"corpus/gpuocelot/tests/ptx/rodinia/lud_kernel.ptx",
                         "corpus/nvcc/ptx/struct_calls.sm_80.G.ptx",
                         "corpus/gpuocelot/tests/ptx/rodinia/srad_kernel.ptx"};
  std::uint32_t seed = 7;
  for (const char* file : files) {
    std::filesystem::path path = *shared / file;
    if (!std::filesystem::exists(path)) continue;
    DYNAMIC_SECTION(file) {
      CHECK(checkRandomEdits(test::readFile(path), 30, seed++) > 30);
    }
  }
}

TEST_CASE("Incremental re-analysis declines edits outside a single body", "[incremental]") {
  std::string text = test::kernel("\tret;\n");
  LintResult previous = lintText(text);
  // An edit in the module header.
  std::string next(1, ' ');
  next += text;
  SyntaxTree tree = reparseSyntax(previous.tree, next, describeEdit(text, 0, 0, " "));
  CHECK_FALSE(relintChangedFunction(next, tree, previous, ChangedSpan{0, 0, 1}).has_value());
}

TEST_CASE("Incremental re-analysis matches a full run on the rules' cases", "[incremental][defects]") {
  // The dataflow-backed rules (calls against prototypes, call sequences, addresses) read
  // other functions' signatures and module variables: their findings must still depend only
  // on the edited body and the module's declarations (tests/rules/<CODE>/).
  std::filesystem::path root = test::sourceDir() / "tests" / "rules";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().extension() == ".ptx") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::uint32_t seed = 11;
  int incremental = 0;
  for (const auto& path : files) {
    INFO(path.string());
    incremental += checkRandomEdits(test::readFile(path), 4, seed++);
  }
  CHECK(incremental > static_cast<int>(files.size()) * 4);
}

// GroupedLint: LintOptions::diagnosticsOnly's lint of a big text a group of functions at a
// time (see LintPipeline.h).
//
// A diagnostic inside a function definition depends only on that function and on the module's
// declarations and signatures (the invariant incremental re-analysis rests on), so a big text
// is linted as: the skeleton (every body left out of the parse) for what lies outside the
// functions, and each group of functions with its own bodies parsed and every other one left
// out, for what lies in those functions. Each tree then covers a group's bodies and the
// skeleton, and is freed when the group is done.
#include "LintPipeline.h"

#include <algorithm>
#include <atomic>
#include <vector>

#include "support/ParallelFor.h"
#include "syntax/FunctionBodies.h"
#include "syntax/SyntaxKinds.h"
#include "syntax/TreeWalk.h"

namespace ptx::pipeline {

namespace {

// The module items that are function definitions: [start, end] of each, in order.
std::vector<ByteRange> functionItemsOf(const SyntaxTree& tree) {
  std::vector<ByteRange> items;
  const SyntaxKinds& kinds = syntaxKinds();
  TSNode root = tree.root();
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      TSNode item = ts_tree_cursor_current_node(&cursor);
      if (ts_node_symbol(item) == kinds.functionDefinition) items.push_back(rangeOf(item));
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return items;
}

}  // namespace

std::optional<LintResult> lintInGroups(std::string_view text, const LintOptions& options, unsigned threads) {
  BracedInteriors braced = bracedInteriors(text);
  const std::vector<BodyInterior>& bodies = braced.bodies;
  if (bodies.size() < 2) return std::nullopt;
  // Groups leave the debug sections out too: no function reads them.
  std::size_t sectionBytes = 0;
  for (const BodyInterior& section : braced.sections) sectionBytes += section.end - section.begin;
  // Groups of consecutive bodies of about groupBytes each: group g is bodies [firstOf[g], firstOf[g + 1]).
  std::vector<std::size_t> firstOf{0};
  std::size_t bodyBytes = 0, groupFill = 0;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    std::size_t bytes = bodies[b].end - bodies[b].begin;
    if (groupFill >= options.groupBytes) {
      firstOf.push_back(b);
      groupFill = 0;
    }
    groupFill += bytes;
    bodyBytes += bytes;
  }
  std::size_t groups = firstOf.size();
  firstOf.push_back(bodies.size());
  // Every group parses the skeleton again: worth it only while that stays a small part of the
  // text (a -G file's debug sections are a third to a half of it, outside every body).
  std::size_t skeletonBytes = text.size() - bodyBytes - sectionBytes;
  if (groups < 2 || skeletonBytes * groups > text.size() / 2) return std::nullopt;

  SyntaxTree skeleton = parseSyntaxExcluding(text, bodies, options.parse);
  if (!functionBodiesMatch(skeleton, bodies)) return std::nullopt;
  const std::vector<ByteRange> items = functionItemsOf(skeleton);
  if (items.size() != bodies.size()) return std::nullopt;
  for (std::size_t i = 1; i < items.size(); ++i) {
    if (items[i - 1].end >= items[i].begin) return std::nullopt;  // Touching items: ownership would be ambiguous.
  }
  // The function item a diagnostic starts in, or items.size() for none.
  auto itemOf = [&](const Diagnostic& diagnostic) {
    auto after = std::upper_bound(items.begin(), items.end(), diagnostic.range.begin,
                                  [](std::uint32_t offset, const ByteRange& item) { return offset < item.begin; });
    if (after == items.begin()) return items.size();
    auto index = static_cast<std::size_t>(after - items.begin()) - 1;
    return startsIn(diagnostic.range, items[index].begin, items[index].end) ? index : items.size();
  };

  // Task 0 lints the skeleton and keeps what lies outside every function; task g + 1 lints
  // group g and keeps what lies in its functions.
  std::vector<std::vector<Diagnostic>> kept(groups + 1);
  std::atomic<bool> failed{false};
  parallelFor(groups + 1, threads, [&](std::size_t task) {
    if (failed) return;
    if (task == 0) {
      LintResult whole = runPipeline(text, std::move(skeleton), options, std::nullopt);
      for (Diagnostic& diagnostic : whole.unsuppressed) {
        if (itemOf(diagnostic) == items.size()) kept[0].push_back(std::move(diagnostic));
      }
      return;
    }
    std::size_t g = task - 1;
    std::vector<BodyInterior> others(bodies.begin(), bodies.begin() + static_cast<std::ptrdiff_t>(firstOf[g]));
    others.insert(others.end(), bodies.begin() + static_cast<std::ptrdiff_t>(firstOf[g + 1]), bodies.end());
    others.insert(others.end(), braced.sections.begin(), braced.sections.end());
    std::sort(others.begin(), others.end(), [](const BodyInterior& a, const BodyInterior& b) { return a.begin < b.begin; });
    SyntaxTree tree = parseSyntaxExcluding(text, others, options.parse);
    if (!tree.isComplete() || ts_node_has_error(tree.root())) {
      failed = true;  // A body with a syntax error: the whole parse decides how it recovers.
      return;
    }
    ByteRange focus{items[firstOf[g]].begin, items[firstOf[g + 1] - 1].end};
    LintResult group = runPipeline(text, std::move(tree), options, focus);
    for (Diagnostic& diagnostic : group.unsuppressed) {
      std::size_t item = itemOf(diagnostic);
      if (item >= firstOf[g] && item < firstOf[g + 1]) kept[task].push_back(std::move(diagnostic));
    }
  });
  if (failed) return std::nullopt;
  LintResult result;
  std::size_t syntaxCount = 0;
  for (std::vector<Diagnostic>& list : kept) {
    for (Diagnostic& diagnostic : list) {
      if (diagnostic.category == Category::Syntax) ++syntaxCount;
      result.diagnostics.push_back(std::move(diagnostic));
    }
  }
  // Near the syntax-diagnostic limit the whole lint would cut differently: let it decide.
  if (syntaxCount + 1 >= options.syntax.maxDiagnostics) return std::nullopt;
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(), byPositionThenCode);
  finishWithSuppressions(text, result, options);
  return result;
}

}  // namespace ptx::pipeline

// Lint: guards (binary and oversized input), then parse and collect diagnostics; and the
// incremental path that re-checks one edited function. The grouped lint of big texts is in
// GroupedLint.cpp, through the pieces LintPipeline.h shares.
#include "Lint.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <iterator>
#include <string>
#include <thread>

#include "Registry.h"
#include "LintPipeline.h"
#include "RuleContext.h"
#include "Suppressions.h"
#include "support/FreedMemory.h"
#include "support/ParallelFor.h"
#include "syntax/SyntaxKinds.h"

namespace ptx {

// Defined in isa/InstructionShape.cpp: checkInstructionShapes on several threads, same result.
InstructionShapes checkInstructionShapesParallel(std::string_view text, const Module& module, unsigned threads);

namespace pipeline {

bool byPositionThenCode(const Diagnostic& a, const Diagnostic& b) {
  if (a.range.begin != b.range.begin) return a.range.begin < b.range.begin;
  return a.rule < b.rule;
}

void finishWithSuppressions(std::string_view text, LintResult& result, const LintOptions& options, bool rulesRan) {
  result.unsuppressed = result.diagnostics;
  result.diagnostics = applySuppressions(text, std::move(result.diagnostics), rulesRan);
  applyRuleSettings(result.diagnostics, options);  // LNT001 may be configured too.
}

bool startsIn(ByteRange range, std::uint32_t begin, std::uint32_t end) {
  return range.begin >= begin && range.begin <= end;
}

}  // namespace pipeline

using pipeline::byPositionThenCode;
using pipeline::finishWithSuppressions;
using pipeline::startsIn;

namespace {

using RuleCheck = void (*)(const RuleContext&);

// What a check reads (Rules.def's `reads` column). The Dataflow ones share one FlowCache, so a
// function's CFG, reaching definitions and values are built once for all of them.
enum class Reads : std::uint8_t { Model, Dataflow };
// When a check runs (Rules.def's `when` column).
enum class When : std::uint8_t { Always, SkipWhenOff, OptIn };

// How the pipeline runs one rule's check.
struct RuleEntry {
  RuleCheck check;
  std::string_view code;
  Category category;
  Reads reads;
  When when;
};

// Every rule that has a check, in Rules.def's order (by code). The order the checks run in
// does not decide the result: diagnostics are sorted by position, then code.
constexpr RuleEntry kRules[] = {
#define PTX_RULE(code, name, category, severity, check, reads, when, summary) \
  {check, #code, Category::category, Reads::reads, When::when},
#include "Rules.def"
};

// Whether the caller abandoned this lint (LintOptions::stop).
bool stopRequested(const LintOptions& options) {
  return options.stop != nullptr && options.stop->load(std::memory_order_relaxed);
}

bool ruleRuns(const RuleEntry& rule, const LintOptions& options) {
  if (rule.when == When::Always) return true;
  auto it = options.rules.find(rule.code);
  if (rule.when == When::OptIn) return it != options.rules.end() && it->second.enabled;
  return it == options.rules.end() || it->second.enabled;
}

// The rules side by side: each writes its own list, and the lists are appended in
// kRules order, which is what running them one after the other into one list gives.
// The dataflow rules run one after the other in a task that shares one FlowCache (a
// FunctionFlow memoizes as it answers, so it is not shared across threads): one such task in a
// whole lint, two in a re-check (see below).
void runRulesInParallel(std::string_view text, const LintResult& result, const InstructionShapes& shapes,
                        std::vector<Diagnostic>& out, unsigned threads, const LintOptions& options,
                        std::optional<ByteRange> focus) {
  constexpr std::size_t kCount = std::size(kRules);
  std::vector<std::vector<Diagnostic>> found(kCount);
  std::vector<std::size_t> independent;
  // Dataflow groups, each sharing one FlowCache. A whole lint keeps one: every group builds
  // every function's flow again. A re-check of one function (focus) is what the user waits
  // for, and its single dataflow group was its longest task: there the performance rules
  // (the register estimate's, which read the flow but not the thread model) get their own
  // group, which builds the one function's flow a second time on the other thread.
  std::vector<std::vector<std::size_t>> dataflowGroups(focus ? 2 : 1);
  for (std::size_t rule = 0; rule < kCount; ++rule) {
    if (!ruleRuns(kRules[rule], options)) continue;
    if (kRules[rule].reads != Reads::Dataflow) {
      independent.push_back(rule);
    } else {
      bool apart = focus && kRules[rule].category == Category::Performance;
      dataflowGroups[apart ? 1 : 0].push_back(rule);
    }
  }
  // The dataflow groups, the longest tasks, come first; then the others.
  const std::size_t groups = dataflowGroups.size();
  parallelFor(independent.size() + groups, threads, [&](std::size_t task) {
    flow::FlowCache flows(text, result.module);
    flows.stopWhen(options.stop);
    try {
      if (task < groups) {
        for (std::size_t rule : dataflowGroups[task]) {
          if (stopRequested(options)) return;
          RuleContext context{text, result.tree, result.module, shapes, found[rule], flows, focus};
          kRules[rule].check(context);
        }
        return;
      }
      if (stopRequested(options)) return;
      std::size_t rule = independent[task - groups];
      RuleContext context{text, result.tree, result.module, shapes, found[rule], flows, focus};
      kRules[rule].check(context);
    } catch (const flow::StopRequested&) {
      // Abandoned (LintOptions::stop): the caller reads result.stopped, not these lists.
    }
  });
  for (std::vector<Diagnostic>& list : found) std::move(list.begin(), list.end(), std::back_inserter(out));
}

// How much of the pipeline a text of this size gets (LintOptions::maxTextBytes).
enum class SizeTier { Analyzed, SyntaxOnly, NotParsed };

// Past maxTextBytes the rules are what a large text cannot afford (their memory and time grow
// with the dataflow of every function); the parse, the syntax checks and the names resolved
// for navigation cost a tree and a model, a few times the text. Past this many times the limit
// even those are not attempted.
constexpr std::size_t kSyntaxOnlyFactor = 4;

SizeTier sizeTierOf(std::string_view text, const LintOptions& options) {
  if (options.maxTextBytes == 0 || text.size() <= options.maxTextBytes) return SizeTier::Analyzed;
  bool parsed = (text.size() + kSyntaxOnlyFactor - 1) / kSyntaxOnlyFactor <= options.maxTextBytes;
  return parsed ? SizeTier::SyntaxOnly : SizeTier::NotParsed;
}

// The note a text over the limit gets: information, since the size is no defect of the file.
Diagnostic sizeLimitNote(std::string_view text, const LintOptions& options, SizeTier tier) {
  Diagnostic note;
  note.rule = "SYN007";
  note.severity = Severity::Information;
  note.category = Category::Syntax;
  note.message = "file is " + std::to_string(text.size() >> 20) + " MiB, over the " +
                 std::to_string(options.maxTextBytes >> 20) + " MiB limit (diagnostics.maxFileMiB): " +
                 (tier == SizeTier::SyntaxOnly ? "syntax checked and names resolved, rules not run"
                                               : "not parsed");
  return note;
}

}  // namespace

LintResult pipeline::runPipeline(std::string_view text, SyntaxTree tree, const LintOptions& options,
                                 std::optional<ByteRange> focus, unsigned threads) {
  LintResult result;
  result.tree = std::move(tree);
  result.focus = focus;
  bool parallel = threads > 1 && !focus;
  // A re-check of one edited function (focus) is what the user waits for after each
  // keystroke: with threads, its syntax walk runs beside its model build and its rules
  // beside each other.
  bool parallelFocus = threads > 1 && focus && result.tree.isComplete();
  if (parallelFocus) {
    parallelFor(2, 2, [&](std::size_t task) {
      if (task == 0) {
        result.module = buildModule(text, result.tree, focus);
      } else {
        result.diagnostics = collectSyntaxDiagnostics(text, result.tree, options.syntax, *focus);
      }
    });
  } else if (focus) {
    result.diagnostics = collectSyntaxDiagnostics(text, result.tree, options.syntax, *focus);
  } else {
    result.diagnostics = parallel ? collectSyntaxDiagnosticsParallel(text, result.tree, options.syntax, threads)
                                  : collectSyntaxDiagnostics(text, result.tree, options.syntax);
  }
  if (!result.tree.isComplete()) {
    finishWithSuppressions(text, result, options, /*rulesRan=*/false);
    return result;
  }
  // A long-lived caller's whole lint gives back what the parse left free before the model
  // grows, and what the model build left free before the rules grow.
  const bool trimBetweenStages = options.returnFreedMemoryBetweenStages && !focus;
  if (!parallelFocus) {
    if (trimBetweenStages && !stopRequested(options)) returnFreedMemory();
    result.module =
        parallel ? buildModuleParallel(text, result.tree, threads) : buildModule(text, result.tree, focus, options.stop);
  }
  if (stopRequested(options)) {
    result.stopped = true;
    return result;
  }
  if (trimBetweenStages) returnFreedMemory();
  if (options.targetOverride) {
    // The override stands in for the module's own `.target` list.
    ByteRange where = result.module.header.target.value_or(ByteRange{0, 0});
    result.module.header.targets = {{*options.targetOverride, where}};
  }
  bool rulesRun = sizeTierOf(text, options) == SizeTier::Analyzed;
  if (!rulesRun) {
    result.diagnostics.push_back(sizeLimitNote(text, options, SizeTier::SyntaxOnly));
  } else if (parallel || parallelFocus) {
    InstructionShapes shapes = checkInstructionShapesParallel(text, result.module, threads);
    runRulesInParallel(text, result, shapes, result.diagnostics, threads, options, focus);
  } else {
    InstructionShapes shapes = checkInstructionShapes(text, result.module);
    flow::FlowCache flows(text, result.module);
    flows.stopWhen(options.stop);
    RuleContext context{text, result.tree, result.module, shapes, result.diagnostics, flows, focus};
    try {
      for (const RuleEntry& rule : kRules) {
        if (stopRequested(options)) break;
        if (ruleRuns(rule, options)) rule.check(context);
      }
    } catch (const flow::StopRequested&) {
      // Abandoned (LintOptions::stop): result.stopped is set below.
    }
  }
  if (stopRequested(options)) {
    result.stopped = true;
    return result;
  }
  applyRuleSettings(result.diagnostics, options);
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(), byPositionThenCode);
  if (focus) {
    // A focused run's callers (relintChangedFunction, the grouped lint) keep its unsuppressed
    // findings inside the focus, merge them with the rest and apply the suppressions to the
    // whole; applying them here too would read every comment of the text once more.
    result.unsuppressed = result.diagnostics;
    return result;
  }
  finishWithSuppressions(text, result, options, rulesRun);
  return result;
}

using pipeline::runPipeline;

namespace {

// The root's children (module items and top-level comments), in order.
std::vector<TSNode> moduleItems(const SyntaxTree& tree) {
  std::vector<TSNode> items;
  TSNode root = tree.root();
  if (ts_node_is_null(root)) return items;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      items.push_back(ts_tree_cursor_current_node(&cursor));
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return items;
}

// The threads the pipeline uses for `text`: 1 unless the options allow more and the text is
// big enough for them to pay.
unsigned threadsFor(std::string_view text, const LintOptions& options) {
  unsigned threads = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  return text.size() > options.parallelThresholdBytes ? threads : 1;
}

}  // namespace

void applyRuleSettings(std::vector<Diagnostic>& diagnostics, const LintOptions& options) {
  if (options.rules.empty()) return;
  std::erase_if(diagnostics, [&](Diagnostic& diagnostic) {
    auto it = options.rules.find(diagnostic.rule);
    if (it == options.rules.end()) return false;
    if (!it->second.enabled) return true;
    if (it->second.severity) diagnostic.severity = *it->second.severity;
    return false;
  });
}

LintResult lintText(std::string_view text, const LintOptions& given) {
  // A result that keeps no tree is never reparsed: its parse needs no chunk boundaries.
  LintOptions withoutChunks;
  if (given.diagnosticsOnly) {
    withoutChunks = given;
    withoutChunks.parse.chunkBoundaries = false;
  }
  const LintOptions& options = given.diagnosticsOnly ? withoutChunks : given;
  LintResult result;
  if (looksBinary(text)) {
    result.diagnostics.push_back(binaryFileDiagnostic(text));
    result.unsuppressed = result.diagnostics;
    return result;
  }
  if (sizeTierOf(text, options) == SizeTier::NotParsed) {
    result.diagnostics.push_back(sizeLimitNote(text, options, SizeTier::NotParsed));
    applyRuleSettings(result.diagnostics, options);
    result.unsuppressed = result.diagnostics;
    return result;
  }
  unsigned threads = threadsFor(text, options);
  if (options.diagnosticsOnly && text.size() > options.groupedAboveBytes && sizeTierOf(text, options) == SizeTier::Analyzed) {
    if (auto grouped = pipeline::lintInGroups(text, options, threads)) return std::move(*grouped);
  }
  if (threads > 1 && options.parseInPieces) {
    // Pieces of about equal size, a few per thread, cut at module items.
    std::size_t pieceBytes = std::max<std::size_t>(text.size() / (std::size_t{threads} * 4), 1);
    return runPipeline(text, parseSyntaxChunked(text, options.parse, threads, pieceBytes), options, std::nullopt,
                       threads);
  }
  return runPipeline(text, parseSyntax(text, options.parse), options, std::nullopt, threads);
}

LintResult lintTree(std::string_view text, SyntaxTree tree, const LintOptions& options) {
  if (looksBinary(text) || sizeTierOf(text, options) == SizeTier::NotParsed) return lintText(text, options);
  return runPipeline(text, std::move(tree), options, std::nullopt, threadsFor(text, options));
}

ChangedSpan ChangedSpan::then(std::uint32_t editBegin, std::uint32_t editEnd, std::uint32_t insertedBytes) const {
  ChangedSpan next;
  next.begin = std::min(begin, editBegin);
  // The region of the current text the two changes cover, and what it was in the old text:
  // bytes past newEnd are unchanged old bytes shifted by the first change.
  std::uint32_t regionEnd = std::max(newEnd, editEnd);
  next.oldEnd = oldEnd + (regionEnd - newEnd);
  next.newEnd = regionEnd + insertedBytes - (editEnd - editBegin);
  return next;
}

std::optional<LintResult> relintChangedFunction(std::string_view newText, const SyntaxTree& newTree,
                                                const LintResult& previous, ChangedSpan change,
                                                const LintOptions& options) {
  if (!previous.tree.isComplete() || !newTree.isComplete()) return std::nullopt;
  // `previous` has a tree, so its text held no NUL (lintText parses no binary file): only the
  // changed bytes can bring one in. (Scanning the whole text cost a 10 MB file's every edit.)
  if (change.begin > change.newEnd || change.newEnd > newText.size() ||
      looksBinary(newText.substr(change.begin, change.newEnd - change.begin))) {
    return std::nullopt;
  }
  if (options.maxTextBytes != 0 && newText.size() > options.maxTextBytes) return std::nullopt;
  std::vector<TSNode> oldItems = moduleItems(previous.tree);
  std::vector<TSNode> newItems = moduleItems(newTree);
  if (oldItems.size() != newItems.size()) return std::nullopt;
  const SyntaxKinds& kinds = syntaxKinds();
  auto delta = static_cast<std::int64_t>(change.newEnd) - static_cast<std::int64_t>(change.oldEnd);

  // The one function definition whose body strictly contains the change, old and new.
  std::optional<std::size_t> edited;
  for (std::size_t i = 0; i < newItems.size(); ++i) {
    TSNode item = newItems[i];
    if (ts_node_start_byte(item) <= change.begin && change.newEnd <= ts_node_end_byte(item)) {
      edited = i;
      break;
    }
  }
  if (!edited) return std::nullopt;
  TSNode newFunction = newItems[*edited];
  TSNode oldFunction = oldItems[*edited];
  if (ts_node_symbol(newFunction) != kinds.functionDefinition ||
      ts_node_symbol(oldFunction) != kinds.functionDefinition) {
    return std::nullopt;
  }
  for (auto [function, end] : {std::pair{newFunction, change.newEnd}, std::pair{oldFunction, change.oldEnd}}) {
    TSNode body = ts_node_child_by_field_id(function, kinds.fields.body);
    if (ts_node_is_null(body) || ts_node_start_byte(body) >= change.begin || end >= ts_node_end_byte(body)) {
      return std::nullopt;  // The edit touches the signature or a brace of the body.
    }
  }
  // Every other item must be the same, clean, and only moved.
  for (std::size_t i = 0; i < newItems.size(); ++i) {
    if (i == *edited) continue;
    TSNode now = newItems[i];
    TSNode before = oldItems[i];
    std::int64_t shift = i < *edited ? 0 : delta;
    if (ts_node_symbol(now) != ts_node_symbol(before) || ts_node_has_error(now) || ts_node_has_error(before) ||
        static_cast<std::int64_t>(ts_node_start_byte(now)) != ts_node_start_byte(before) + shift ||
        static_cast<std::int64_t>(ts_node_end_byte(now)) != ts_node_end_byte(before) + shift) {
      return std::nullopt;
    }
  }

  std::uint32_t oldBegin = ts_node_start_byte(oldFunction);
  std::uint32_t oldEnd = ts_node_end_byte(oldFunction);
  std::uint32_t newBegin = ts_node_start_byte(newFunction);
  std::uint32_t newEnd = ts_node_end_byte(newFunction);
  // A neighbour that touches the function would make "which item a diagnostic belongs to"
  // ambiguous.
  if (*edited > 0 && ts_node_end_byte(newItems[*edited - 1]) >= newBegin) return std::nullopt;
  if (*edited + 1 < newItems.size() && ts_node_start_byte(newItems[*edited + 1]) <= newEnd) return std::nullopt;
  auto shifted = [&](ByteRange range) {
    if (range.begin < oldEnd) return range;
    return ByteRange{static_cast<std::uint32_t>(range.begin + delta), static_cast<std::uint32_t>(range.end + delta)};
  };

  std::vector<Diagnostic> merged;
  std::size_t syntaxCount = 0;
  for (const Diagnostic& diagnostic : previous.unsuppressed) {
    if (startsIn(diagnostic.range, oldBegin, oldEnd)) continue;  // Re-checked below.
    // A diagnostic that reaches into the function depends on what changed.
    if (diagnostic.range.end > oldBegin && diagnostic.range.begin < oldEnd) return std::nullopt;
    Diagnostic moved = diagnostic;
    moved.range = shifted(diagnostic.range);
    for (RelatedInformation& related : moved.related) {
      if (related.range.end > oldBegin && related.range.begin < oldEnd) return std::nullopt;
      related.range = shifted(related.range);
    }
    // Fixes move with their diagnostic; one that would edit the changed function is stale.
    for (Fix& fix : moved.fixes) {
      for (FixEdit& edit : fix.edits) {
        if (edit.range.end >= oldBegin && edit.range.begin <= oldEnd) return std::nullopt;
        edit.range = shifted(edit.range);
      }
    }
    if (moved.category == Category::Syntax) ++syntaxCount;
    merged.push_back(std::move(moved));
  }

  // A large function's re-check takes the machine's threads when the options allow several
  // (the server's do: the user waits for it); a small one is done before threads would start.
  unsigned threads = 1;
  if (newEnd - newBegin >= options.parallelRecheckBytes) {
    threads = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  }
  LintResult focused = runPipeline(newText, newTree, options, ByteRange{newBegin, newEnd}, threads);
  for (Diagnostic& diagnostic : focused.unsuppressed) {
    if (!startsIn(diagnostic.range, newBegin, newEnd)) continue;
    if (diagnostic.category == Category::Syntax) ++syntaxCount;
    merged.push_back(std::move(diagnostic));
  }
  // Near the syntax-diagnostic limit the full run would cut differently: let it decide.
  if (syntaxCount + 1 >= options.syntax.maxDiagnostics) return std::nullopt;
  std::stable_sort(merged.begin(), merged.end(), byPositionThenCode);
  focused.diagnostics = std::move(merged);
  finishWithSuppressions(newText, focused, options);
  return focused;
}

}  // namespace ptx

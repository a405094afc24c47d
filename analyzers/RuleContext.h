// RuleContext: what a rule may read (the text, its tree and model) and how it reports.
//
// Rules are pure functions of the context: they never mutate the model, never do I/O, and
// report through `report`. Each rule lives in its own file with its documentation.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "Registry.h"
#include "diag/Diagnostic.h"
#include "flow/FunctionFlow.h"
#include "isa/InstructionShape.h"
#include "model/Module.h"
#include "syntax/SyntaxTree.h"

namespace ptx {

struct RuleContext {
  std::string_view text;
  const SyntaxTree& tree;
  const Module& module;
  const InstructionShapes& shapes;  // Form matching of every instruction, computed once.
  std::vector<Diagnostic>& out;
  // Per-function dataflow (CFG, reaching definitions, address values), built on first use
  // and shared by every rule of this run.
  flow::FlowCache& flows;
  // Set when only findings that start in this range are kept (the function an incremental
  // re-check is about, LintResult::focus): a check may skip what lies outside it.
  std::optional<ByteRange> focus;

  std::string_view textOf(ByteRange range) const { return text.substr(range.begin, range.end - range.begin); }

  // Whether a finding starting where `range` starts would be kept (see `focus`).
  bool keeps(ByteRange range) const { return !focus || (range.begin >= focus->begin && range.begin <= focus->end); }

  // Reports a finding of `rule` with the category and default severity Rules.def gives it.
  void report(RuleCode rule, ByteRange range, std::string message, std::vector<RelatedInformation> related = {}) const {
    reportWithSeverity(rule, rule.meta().defaultSeverity, range, std::move(message), std::move(related));
  }

  // For the rare rule whose findings differ in severity (SEM006: 32-bit addressing is a
  // warning, other sizes are errors); every other rule reports with its default.
  void reportWithSeverity(RuleCode rule, Severity severity, ByteRange range, std::string message,
                          std::vector<RelatedInformation> related = {}) const {
    const RuleMeta& meta = rule.meta();
    Diagnostic diagnostic;
    diagnostic.rule = std::string(meta.code);
    diagnostic.severity = severity;
    diagnostic.category = meta.category;
    diagnostic.range = range;
    diagnostic.message = std::move(message);
    diagnostic.related = std::move(related);
    out.push_back(std::move(diagnostic));
  }

  // Attaches a machine-applicable fix to the diagnostic reported last.
  void attachFix(std::string title, std::vector<FixEdit> edits, bool isPreferred = false) const {
    if (out.empty() || edits.empty()) return;
    out.back().fixes.push_back({std::move(title), std::move(edits), isPreferred});
  }
};

// The pieces joined into one string. Messages are built with it because GCC 12 warns
// (-Wrestrict, a false positive) on `"'" + std::string(...)`.
inline std::string concat(std::initializer_list<std::string_view> parts) {
  std::string joined;
  for (std::string_view part : parts) joined += part;
  return joined;
}

// The innermost scope (block, function or module) whose range holds `offset`.
inline ScopeId innermostScopeAt(const Module& module, std::uint32_t offset) {
  if (module.scopes.empty()) return kNoScope;
  // Scopes are created in source order, so their starts ascend: take the last one starting
  // at or before `offset`, then climb until one holds it.
  std::size_t low = 0, high = module.scopes.size();
  while (high - low > 1) {
    std::size_t middle = (low + high) / 2;
    (module.scopes[middle].range.begin <= offset ? low : high) = middle;
  }
  ScopeId scope = static_cast<ScopeId>(low);
  while (scope != kNoScope &&
         !(module.scopes[scope].range.begin <= offset && offset < module.scopes[scope].range.end)) {
    scope = module.scopes[scope].parent;
  }
  return scope == kNoScope ? 0 : scope;
}

// Whether `outer` is `inner` or one of its enclosing scopes.
inline bool scopeEncloses(const Module& module, ScopeId outer, ScopeId inner) {
  for (ScopeId s = inner; s != kNoScope; s = module.scopes[s].parent) {
    if (s == outer) return true;
  }
  return false;
}

// Whether a function has a body the dataflow rules analyze: instructions, and no syntax
// errors that would leave its control flow in doubt.
inline bool hasAnalyzableBody(const FunctionInfo& function) {
  return function.bodyScope != kNoScope && function.instructionCount != 0 && !function.hasSyntaxErrors;
}

// Whether some instruction of the function passes `test` (a quick scan before a rule builds
// the dataflow it needs only for functions that have something to check).
template <typename Test>
bool anyInstructionOf(const Module& module, const FunctionInfo& function, Test test) {
  for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
    if (test(module.instructions[i])) return true;
  }
  return false;
}

// Every rule's check, declared from Rules.def (Lint.cpp runs them).
#define PTX_RULE(code, name, category, severity, check, reads, when, summary) void check(const RuleContext& context);
#include "Rules.def"

// The candidate closest to `word` by edit distance, or empty when none is close enough.
std::string_view closestMatch(std::string_view word, const std::vector<std::string_view>& candidates);

}  // namespace ptx

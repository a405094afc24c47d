// Lint: the analysis pipeline over one text, as ptxlint and the server run it.
//
// The pipeline is parse → syntax diagnostics → model → rules. New rules plug in through
// Rules.def; callers keep calling lintText.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diag/Diagnostic.h"
#include "model/Module.h"
#include "syntax/SyntaxDiagnostics.h"
#include "syntax/SyntaxTree.h"

namespace ptx {

// How a project configures one rule (`.ptxls.json`, the server's settings).
struct RuleSetting {
  bool enabled = true;
  std::optional<Severity> severity;  // Overrides the rule's default severity.
};

struct LintOptions {
  ParseOptions parse;
  SyntaxDiagnosticOptions syntax;
  // Texts larger than this are parsed, syntax-checked and their names resolved (what
  // navigation needs), but no rule runs; past four times this they are not parsed. Either way
  // an information note (SYN007) says so (0: no limit).
  std::size_t maxTextBytes = std::size_t{256} << 20;
  // Keyed by rule code ("ISA004"); Registry's findRule turns names into codes.
  std::map<std::string, RuleSetting, std::less<>> rules;
  // Checks instructions against this target ("sm_90a") instead of the module's `.target`.
  std::optional<std::string> targetOverride;
  // Threads one text may use: 1 runs the pipeline on the calling thread; 0 means
  // std::thread::hardware_concurrency(). With more than one, a text larger than
  // parallelThresholdBytes is parsed in pieces (parseSyntaxChunked), its model built in
  // groups of items (buildModuleParallel) and its rules run side by side; the result is the
  // same as the sequential one, diagnostics in the same order (tests/analyzers/
  // parallel_lint_test.cpp). The server keeps 1 for full analyses and asks for 0 for the
  // re-check of an edited function (relintChangedFunction), whose syntax walk and model build
  // then run side by side, and then its rules, when the function has at least
  // parallelRecheckBytes.
  unsigned threads = 1;
  std::size_t parallelThresholdBytes = std::size_t{1} << 20;
  std::size_t parallelRecheckBytes = std::size_t{64} << 10;
  // With several threads, parse the text in pieces (parseSyntaxChunked). False: parse it
  // whole and run only the later stages on several threads; the server's tree is the base of
  // its next incremental reparse, which a tree joined from pieces cannot be (tree-sitter's
  // reparse of it drops every piece after the first).
  bool parseInPieces = true;
  // The caller reads only the diagnostics (ptxlint): a text larger than groupedAboveBytes is
  // then linted a group of functions at a time, each group parsed with every other body left
  // out, so that memory holds a few groups' trees and models rather than the whole text's.
  // The diagnostics are those of the whole lint (tests/analyzers/grouped_lint_test.cpp); the
  // result has no tree and no module.
  bool diagnosticsOnly = false;
  // A long-lived caller (the server) asks for the heap's free pages to be handed back between
  // a whole lint's stages (returnFreedMemory), so that the model and then the rules do not
  // grow the heap beside what the parse and then the model build left free.
  bool returnFreedMemoryBetweenStages = false;
  // A long-lived caller may abandon a lint whose result it will not use (the server's full
  // analysis of a version an edit has replaced): once the flag is set, the pipeline stops at
  // its next stage or rule and returns a result marked `stopped`.
  const std::atomic<bool>* stop = nullptr;
  std::size_t groupedAboveBytes = std::size_t{8} << 20;
  std::size_t groupBytes = std::size_t{2} << 20;  // Body bytes per group, about.
};

struct LintResult {
  SyntaxTree tree;  // Empty for binary or oversized input.
  Module module;    // Empty unless the text was parsed completely.
  std::vector<Diagnostic> diagnostics;
  // The diagnostics before suppression comments were applied (what incremental re-analysis
  // reuses: a `disable=`...`enable=` range may span functions).
  std::vector<Diagnostic> unsuppressed;
  // Set for an incremental result: `module` then holds every declaration and signature but
  // only the body of the function in this range (see relintChangedFunction); features that
  // need other bodies must wait for a full result.
  std::optional<ByteRange> focus;
  // LintOptions::stop ended the lint early: the result is partial and not to be used.
  bool stopped = false;
};

LintResult lintText(std::string_view text, const LintOptions& options = {});

// Applies the project's rule settings (`options.rules`, by code): disabled rules are
// dropped, severities overridden. lintText does it; a caller that adds diagnostics of its own
// applies it to them.
void applyRuleSettings(std::vector<Diagnostic>& diagnostics, const LintOptions& options);

// The pipeline after parsing, for callers that parse incrementally themselves.
LintResult lintTree(std::string_view text, SyntaxTree tree, const LintOptions& options = {});

// One span of a text that changed since an analysis: [begin, oldEnd) of the old text became
// [begin, newEnd) of the new one. Several edits are merged into the span covering them all.
struct ChangedSpan {
  std::uint32_t begin = 0;
  std::uint32_t oldEnd = 0;
  std::uint32_t newEnd = 0;

  // The span after a further edit replacing [editBegin, editEnd) of the *new* text with
  // `insertedBytes` bytes.
  ChangedSpan then(std::uint32_t editBegin, std::uint32_t editEnd, std::uint32_t insertedBytes) const;
};

// Incremental re-analysis: when every change since `previous` lies inside the body of one
// function and the rest of the module kept its shape, re-checks only that function and
// reuses (shifted) every other diagnostic of `previous`. `newTree` is the reparse of
// `newText`. Returns nullopt when the change is not so confined; the caller then runs the
// full pipeline. The diagnostics equal those of lintTree(newText, newTree) (tests check it
// over corpus files); the module is the focused one described at LintResult::focus.
std::optional<LintResult> relintChangedFunction(std::string_view newText, const SyntaxTree& newTree,
                                                const LintResult& previous, ChangedSpan change,
                                                const LintOptions& options = {});

}  // namespace ptx

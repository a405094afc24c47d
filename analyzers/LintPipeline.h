// LintPipeline (internal to analyzers): the pieces of Lint.cpp's pipeline that the grouped
// lint (GroupedLint.cpp) runs again per group, and the merge rules both incremental paths share.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "Lint.h"

namespace ptx::pipeline {

// The pipeline after parsing. With `focus`, the model walks only the bodies overlapping it,
// syntax diagnostics cover only the module items overlapping it, and rules may skip what lies
// outside it (RuleContext::focus); its result leaves suppressions to the caller (`diagnostics`
// and `unsuppressed` are the same list), which merges the focus's findings with the rest.
// With `threads` > 1, each stage (syntax diagnostics, model, instruction shapes, rules) runs
// on several threads, with the same result as on one; with `focus` too, the syntax walk runs
// beside the model build and the rules in groups side by side. A text in the SyntaxOnly tier
// stops after the model, with the note that says so.
LintResult runPipeline(std::string_view text, SyntaxTree tree, const LintOptions& options,
                       std::optional<ByteRange> focus, unsigned threads = 1);

// The order of a result: by position, and at one position by rule code, so that it does not
// depend on the order the checks run in (a rule's own findings keep the order it reported them).
bool byPositionThenCode(const Diagnostic& a, const Diagnostic& b);

// Keeps the diagnostics as found (`unsuppressed`) and applies the suppression comments to get
// what is shown.
void finishWithSuppressions(std::string_view text, LintResult& result, const LintOptions& options,
                            bool rulesRan = true);

// A diagnostic belongs to the function its start lies in, end included: a missing closing
// brace is reported right at the function's end. (Callers decline items that touch.)
bool startsIn(ByteRange range, std::uint32_t begin, std::uint32_t end);

// The grouped lint of LintOptions::diagnosticsOnly (GroupedLint.cpp): nullopt when the text
// is to be linted whole.
std::optional<LintResult> lintInGroups(std::string_view text, const LintOptions& options, unsigned threads);

}  // namespace ptx::pipeline

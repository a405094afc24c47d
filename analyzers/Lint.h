// Lint: the analysis pipeline over one text, as ptxlint and the server run it.
//
// The pipeline is parse → syntax diagnostics → model → semantic rules. New rules plug in
// here; callers keep calling lintText.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "diag/Diagnostic.h"
#include "model/Module.h"
#include "syntax/SyntaxDiagnostics.h"
#include "syntax/SyntaxTree.h"

namespace ptx {

struct LintOptions {
  ParseOptions parse;
  SyntaxDiagnosticOptions syntax;
  // Texts larger than this are not parsed; one diagnostic says so (0: no limit).
  std::size_t maxTextBytes = std::size_t{256} << 20;
};

struct LintResult {
  SyntaxTree tree;  // Empty for binary or oversized input.
  Module module;    // Empty unless the text was parsed completely.
  std::vector<Diagnostic> diagnostics;
};

LintResult lintText(std::string_view text, const LintOptions& options = {});

}  // namespace ptx

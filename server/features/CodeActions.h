// CodeActions: the quick fixes for the diagnostics under a range of the document, from the
// machine-applicable fixes the rules attach to their diagnostics (Diagnostic::fixes).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "Lint.h"
#include "diag/Diagnostic.h"

namespace ptx::lsp {

struct CodeAction {
  std::string title;
  std::string kind = "quickfix";
  // The diagnostic the action fixes, so that the server can link the action to the one the
  // client sent back (LSP matches diagnostics by range, code and message).
  std::string rule;
  ByteRange diagnosticRange;
  std::string diagnosticMessage;
  std::vector<FixEdit> edits;  // Sorted by position, never overlapping.
  bool isPreferred = false;
};

// The fixes of every diagnostic of `analysis` that touches `range` (an empty range — the
// cursor — touches a diagnostic it sits in or at either end of), in diagnostic order. A fix
// offered for several diagnostics (the same title and edits) is listed once, for the first.
std::vector<CodeAction> codeActions(std::string_view text, const LintResult& analysis, ByteRange range);

// `text` with `edits` applied; the edits must not overlap. For previews and tests.
std::string applyEdits(std::string_view text, std::vector<FixEdit> edits);

}  // namespace ptx::lsp

// SyntaxDiagnostics: turns a parse into diagnostics a PTX writer can act on.
//
// Sources, in order: binary input (reported once, nothing else), non-ASCII bytes (ptxas
// rejects them anywhere, comments included), ERROR and MISSING nodes, and a few checks the
// grammar leaves lenient on purpose so that recovery stays local: unknown directives,
// preprocessor lines ptxas does not accept, and statements whose "opcode" cannot be one.
// Messages name what was expected and where ("expected ';' after instruction"), never just
// "syntax error".
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "diag/Diagnostic.h"
#include "syntax/SyntaxTree.h"

namespace ptx {

struct SyntaxDiagnosticOptions {
  // Stop after this many diagnostics; the last one then says that more were suppressed.
  std::size_t maxDiagnostics = 200;
};

// True when the text contains NUL bytes: it is not PTX source and is not analyzed further.
bool looksBinary(std::string_view text);

// Diagnostics for `text`, which `tree` must have been parsed from.
std::vector<Diagnostic> collectSyntaxDiagnostics(std::string_view text, const SyntaxTree& tree,
                                                 const SyntaxDiagnosticOptions& options = {});

// The same, but only for the module items overlapping `focus` (incremental re-analysis of one
// edited function: the items outside it keep their earlier diagnostics).
std::vector<Diagnostic> collectSyntaxDiagnostics(std::string_view text, const SyntaxTree& tree,
                                                 const SyntaxDiagnosticOptions& options, ByteRange focus);

// The same as collectSyntaxDiagnostics(text, tree, options), on up to `threads` threads when
// the tree has no syntax errors (module items are then independent); otherwise on this one.
std::vector<Diagnostic> collectSyntaxDiagnosticsParallel(std::string_view text, const SyntaxTree& tree,
                                                         const SyntaxDiagnosticOptions& options, unsigned threads);

// The single diagnostic reported for binary input.
Diagnostic binaryFileDiagnostic(std::string_view text);

}  // namespace ptx

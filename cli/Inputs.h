// Inputs: what ptxlint's PATH arguments name — files, directories searched for *.ptx, globs,
// '-' for standard input — and reading one of them as PTX text.
//
// Paths that yield nothing to check (missing, a directory or glob without PTX files) become
// inputs that carry their problem, so that the report names every path in the order given.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "Lint.h"

namespace ptx::cli {

struct Input {
  std::string path;
  std::string ioError;  // Why this path cannot be checked; empty for a file to read.
};

// Matches `text` (a '/'-separated relative path) against a glob: '*' and '?' stay within one
// path component, '[abc]'/'[a-z]'/'[!a]' are character classes, '**' crosses directories
// ('**/' also matches no directory at all).
bool globMatch(std::string_view pattern, std::string_view text);

// Expands directories into their *.ptx files and globs into the PTX files they match, sorted;
// keeps explicit files as given.
std::vector<Input> collectInputs(const std::vector<std::string>& paths);

// Reads `path` ('-': standard input) into `text`. False, with `error` set to a message for
// the user, when it cannot be read. A binary file is read like any other: the lint reports
// it (SYN006), so that every output format carries a finding for it.
bool readPtxText(const std::string& path, std::string& text, std::string& error);

// Whether `text` holds no PTX at all: nothing but blanks and comments (an empty file
// included). ptxas rejects such a file ("Missing .version directive at start of file").
bool holdsNoPtx(std::string_view text);

// The diagnostic ptxlint reports for a file that holds no PTX (SEM005 at its start), with
// the rule settings of `options` applied; nullopt when SEM005 is turned off.
std::optional<Diagnostic> noPtxDiagnostic(std::string_view text, const LintOptions& options);

}  // namespace ptx::cli

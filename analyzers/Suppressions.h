// Suppressions: inline comments that silence rules where the author knows better.
//
//   // ptxlint: disable-next-line=ISA010,SEM001   the next line only
//   // ptxlint: disable=ISA010                      from here ...
//   // ptxlint: enable=ISA010                       ... to here (or the end of the file)
//
// Rules are named by code or name; `all` names every rule. A suppression that silences
// nothing is reported (LNT001 unused-suppression), as ruff reports unused `noqa` comments, so
// stale ones do not pile up.
#pragma once

#include <string_view>
#include <vector>

#include "diag/Diagnostic.h"

namespace ptx {

// Drops the diagnostics that suppression comments in `text` cover and adds an LNT001 warning
// for each suppression that covered none (with `rulesRan` false — a text whose parse stopped
// or that was too large for the rules — only for those naming no rule). Scans the text, not
// the tree, so a suppression works in any file, broken ones included; costs one search for
// "ptxlint:" when there are none.
std::vector<Diagnostic> applySuppressions(std::string_view text, std::vector<Diagnostic> diagnostics,
                                          bool rulesRan = true);

}  // namespace ptx

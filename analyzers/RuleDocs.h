// RuleDocs: each rule's documentation (what it flags, why, examples, the fix), compiled in
// from the comment that opens the rule's source file, for `ptxlint --explain`.
#pragma once

#include <string_view>

namespace ptx {

// The documentation of the rule with `code`; empty when there is none.
std::string_view ruleDocumentation(std::string_view code);

}  // namespace ptx

// Lint: guards (binary and oversized input), then parse and collect diagnostics.
#include "Lint.h"

#include <string>

namespace ptx {

LintResult lintText(std::string_view text, const LintOptions& options) {
  LintResult result;
  if (looksBinary(text)) {
    result.diagnostics.push_back(binaryFileDiagnostic(text));
    return result;
  }
  if (options.maxTextBytes != 0 && text.size() > options.maxTextBytes) {
    Diagnostic tooLarge;
    tooLarge.rule = "SYN007";
    tooLarge.severity = Severity::Error;
    tooLarge.category = Category::Syntax;
    tooLarge.message = "file is " + std::to_string(text.size() >> 20) + " MiB, over the " +
                       std::to_string(options.maxTextBytes >> 20) + " MiB limit; not parsed";
    result.diagnostics.push_back(std::move(tooLarge));
    return result;
  }
  result.tree = parseSyntax(text, options.parse);
  result.diagnostics = collectSyntaxDiagnostics(text, result.tree, options.syntax);
  return result;
}

}  // namespace ptx

// Lint: guards (binary and oversized input), then parse and collect diagnostics.
#include "Lint.h"

#include <algorithm>
#include <string>

#include "RuleContext.h"

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
  if (!result.tree.isComplete()) return result;
  result.module = buildModule(text, result.tree);
  InstructionShapes shapes = checkInstructionShapes(text, result.module);
  RuleContext context{text, result.tree, result.module, shapes, result.diagnostics};
  checkModuleHeader(context);
  checkAddressSize(context);
  checkUnknownOpcode(context);
  checkRequiresNewerPtx(context);
  checkRequiresNewerTarget(context);
  checkUnknownModifier(context);
  checkModifierCombination(context);
  checkOperandCount(context);
  checkOperandKind(context);
  checkOperandType(context);
  checkSubwordRegister(context);
  checkVectorTypeOrder(context);
  checkUndeclaredSymbol(context);
  checkDuplicateDeclaration(context);
  checkUndefinedLabel(context);
  checkUndeclaredFunction(context);
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) { return a.range.begin < b.range.begin; });
  return result;
}

}  // namespace ptx

// CodeActions: turns the fixes attached to diagnostics into code actions.
#include "features/CodeActions.h"

#include <algorithm>

namespace ptx::lsp {
namespace {

bool touches(ByteRange diagnostic, ByteRange range) {
  return diagnostic.begin <= range.end && range.begin <= diagnostic.end;
}

// A fix whose edits fall outside the text (an analysis of an older text) or overlap is
// never offered: applying it would corrupt the document.
bool applicable(const std::vector<FixEdit>& edits, std::size_t textSize) {
  for (std::size_t i = 0; i < edits.size(); ++i) {
    if (edits[i].range.begin > edits[i].range.end || edits[i].range.end > textSize) return false;
    if (i > 0 && edits[i - 1].range.end > edits[i].range.begin) return false;
  }
  return !edits.empty();
}

std::vector<FixEdit> sortedByPosition(std::vector<FixEdit> edits) {
  std::stable_sort(edits.begin(), edits.end(), [](const FixEdit& a, const FixEdit& b) {
    return a.range.begin < b.range.begin || (a.range.begin == b.range.begin && a.range.end < b.range.end);
  });
  return edits;
}

}  // namespace

std::vector<CodeAction> codeActions(std::string_view text, const LintResult& analysis, ByteRange range) {
  std::vector<CodeAction> actions;
  for (const Diagnostic& diagnostic : analysis.diagnostics) {
    if (diagnostic.fixes.empty() || !touches(diagnostic.range, range)) continue;
    for (const Fix& fix : diagnostic.fixes) {
      std::vector<FixEdit> edits = sortedByPosition(fix.edits);
      if (!applicable(edits, text.size())) continue;
      bool repeated = std::any_of(actions.begin(), actions.end(), [&](const CodeAction& action) {
        return action.title == fix.title && action.edits == edits;
      });
      if (repeated) continue;
      CodeAction action;
      action.title = fix.title;
      action.rule = diagnostic.rule;
      action.diagnosticRange = diagnostic.range;
      action.diagnosticMessage = diagnostic.message;
      action.edits = std::move(edits);
      action.isPreferred = fix.isPreferred;
      actions.push_back(std::move(action));
    }
  }
  return actions;
}

std::string applyEdits(std::string_view text, std::vector<FixEdit> edits) {
  edits = sortedByPosition(std::move(edits));
  std::string result;
  result.reserve(text.size());
  std::size_t at = 0;
  for (const FixEdit& edit : edits) {
    std::size_t begin = std::clamp<std::size_t>(edit.range.begin, at, text.size());
    result.append(text.substr(at, begin - at));
    result += edit.newText;
    at = std::clamp<std::size_t>(edit.range.end, begin, text.size());
  }
  result.append(text.substr(at));
  return result;
}

}  // namespace ptx::lsp

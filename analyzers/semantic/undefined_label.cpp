// SEM003 undefined-label
//
// What it does: reports a branch target (`bra`, `brx.idx`, `.branchtargets`) that names no
// label of the block holding the branch or of an enclosing block.
//
// Why is this bad: ptxas stops with "Unknown symbol". Labels in a nested `{ }` block are not
// visible outside it.
//
// Example:
//     bra $L__done;          // no label $L__done in this function
//
// Use instead:
//     bra $L__done;
//     ...
//     $L__done:
//     ret;
//
// Fix: change the target to the suggested label when the branch can see it.
//
// References: PTX ISA §4.3 (labels), §9.7.12.1 (bra).
#include <string>

#include "RuleContext.h"

namespace ptx {

void checkUndefinedLabel(const RuleContext& context) {
  for (const Reference& reference : context.module.references) {
    if (reference.role != ReferenceRole::BranchTarget || reference.target != kNoSymbol ||
        reference.predefined || reference.inDamagedCode) {
      continue;
    }
    std::string_view name = context.textOf(reference.range);
    std::string message = "branch to undefined label '" + std::string(name) + "'";
    std::vector<std::string_view> labels;
    for (const Symbol& symbol : context.module.symbols) {
      if (symbol.kind == SymbolKind::Label) labels.push_back(symbol.name);
    }
    std::string_view suggestion = closestMatch(name, labels);
    if (!suggestion.empty()) message += "; did you mean '" + std::string(suggestion) + "'?";
    context.report("SEM003", reference.range, std::move(message));
    if (suggestion.empty()) continue;
    ScopeId scope = innermostScopeAt(context.module, reference.range.begin);
    for (const Symbol& symbol : context.module.symbols) {
      if (symbol.kind != SymbolKind::Label || symbol.name != suggestion) continue;
      if (!scopeEncloses(context.module, symbol.scope, scope)) continue;
      context.attachFix(concat({"Change to '", symbol.name, "'"}), {{reference.range, symbol.name}}, /*isPreferred=*/true);
      break;
    }
  }
}

}  // namespace ptx

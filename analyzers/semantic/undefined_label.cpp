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
    // Suggestions come from the branch's own function: a label of another function is never
    // a target (and what the finding says must not depend on other functions' bodies, which
    // incremental re-analysis does not look at).
    const Module& module = context.module;
    ScopeId scope = innermostScopeAt(module, reference.range.begin);
    std::vector<std::string_view> labels;
    for (const FunctionInfo& info : module.functions) {
      if (info.bodyScope == kNoScope) continue;
      ByteRange function = module.scopes[info.bodyScope].range;
      if (reference.range.begin < function.begin || reference.range.begin >= function.end) continue;
      for (const Symbol& symbol : module.symbols) {
        if (symbol.kind == SymbolKind::Label && symbol.nameRange.begin >= function.begin &&
            symbol.nameRange.end <= function.end) {
          labels.push_back(symbol.name);
        }
      }
      break;
    }
    std::string_view suggestion = closestMatch(name, labels);
    if (!suggestion.empty()) message += "; did you mean '" + std::string(suggestion) + "'?";
    context.report("SEM003", reference.range, std::move(message));
    if (suggestion.empty()) continue;
    for (const Symbol& symbol : module.symbols) {
      if (symbol.kind != SymbolKind::Label || symbol.name != suggestion) continue;
      if (!scopeEncloses(module, symbol.scope, scope)) continue;
      context.attachFix(concat({"Change to '", symbol.name, "'"}), {{reference.range, symbol.name}}, /*isPreferred=*/true);
      break;
    }
  }
}

}  // namespace ptx

// SEM001 undeclared-symbol
//
// What it does: reports a register, variable or parameter that is used without a visible
// declaration: not declared in the block, an enclosing block, the function's parameters or
// the module, or only declared later in the file.
//
// Why is this bad: ptxas stops with "Unknown symbol"; a name used before its `.reg` line is
// rejected too ("Label expected for forward reference").
//
// Example:
//     .reg .b32 %r<2>;
//     mov.b32 %r5, 1;        // %r<2> declares only %r0 and %r1
//
// Use instead:
//     .reg .b32 %r<6>;
//     mov.b32 %r5, 1;
//
// References: PTX ISA §5.4 (variables), §5.4.6 (parameterized names), §4.4 (special registers).
#include <string>

#include "RuleContext.h"

namespace ptx {

void checkUndeclaredSymbol(const RuleContext& context) {
  const Module& module = context.module;
  for (const Reference& reference : module.references) {
    if (reference.target != kNoSymbol || reference.predefined || reference.inDamagedCode) continue;
    if (reference.role == ReferenceRole::BranchTarget || reference.role == ReferenceRole::Callee) {
      continue;  // SEM003 and SEM004 phrase those.
    }
    std::string_view name = context.textOf(reference.range);
    std::string message = "use of undeclared identifier '" + std::string(name) + "'";
    std::vector<std::string_view> candidates;
    for (const Symbol& symbol : module.symbols) {
      if (symbol.kind != SymbolKind::Label && symbol.rangeCount == 0) candidates.push_back(symbol.name);
    }
    std::string_view suggestion = closestMatch(name, candidates);
    if (!suggestion.empty()) message += "; did you mean '" + std::string(suggestion) + "'?";
    context.report("SEM001", Category::Semantic, reference.range, std::move(message));
  }
}

}  // namespace ptx

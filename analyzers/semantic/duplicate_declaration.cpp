// SEM002 duplicate-declaration
//
// What it does: reports a name declared twice in the same scope: two `.reg` lines, a
// register inside an earlier `%r<N>` range, a register named like a parameter, or a label
// defined twice in one block. A nested block may shadow an outer name; that is not reported.
//
// Why is this bad: ptxas stops with "Duplicate definition of variable" (or "of label").
//
// Example:
//     .reg .b32 %r<4>;
//     .reg .b32 %r2;         // %r2 is already in %r<4>
//
// Use instead:
//     .reg .b32 %r<4>;
//     .reg .b32 %tmp;
//
// References: PTX ISA §5.4.6 (parameterized names), §7.1 (scopes).
#include <string>

#include "RuleContext.h"

namespace ptx {

void checkDuplicateDeclaration(const RuleContext& context) {
  const Module& module = context.module;
  for (const auto& [first, duplicate] : module.duplicates) {
    const Symbol& original = module.symbols[first];
    const Symbol& again = module.symbols[duplicate];
    std::string spelled(context.textOf(again.nameRange));
    if (again.rangeCount > 0) {
      spelled += '<';
      spelled += std::to_string(again.rangeCount);
      spelled += '>';
    }
    std::string what = again.kind == SymbolKind::Label ? "label" : std::string(toString(again.kind));
    std::string message = "duplicate declaration of " + what + " '" + spelled + "' in the same scope";
    std::string note = original.rangeCount > 0
                           ? "'" + original.name + "<" + std::to_string(original.rangeCount) +
                                 ">' already declares it here"
                           : "first declared here";
    context.report("SEM002", again.nameRange, std::move(message),
                   {{original.nameRange, std::move(note)}});
  }
}

}  // namespace ptx

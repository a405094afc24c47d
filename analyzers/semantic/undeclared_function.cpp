// SEM004 undeclared-function
//
// What it does: reports a `call` whose callee is neither a function declared earlier in the
// module nor a register holding a function address.
//
// Why is this bad: ptxas needs the callee's prototype before the call ("Call to 'f' requires
// call prototype"); a function defined further down the file is not enough.
//
// Example:
//     call foo;              // foo is defined after this kernel
//
// Use instead:
//     .func foo();           // prototype at the top of the module
//     ...
//     call foo;
//
// References: PTX ISA §7.1 (function declarations and definitions).
#include <string>

#include "RuleContext.h"

namespace ptx {

void checkUndeclaredFunction(const RuleContext& context) {
  const Module& module = context.module;
  for (const Reference& reference : module.references) {
    if (reference.role != ReferenceRole::Callee || reference.target != kNoSymbol ||
        reference.inDamagedCode) {
      continue;
    }
    std::string_view name = context.textOf(reference.range);
    std::string message = "call to undeclared function '" + std::string(name) + "'";
    std::vector<RelatedInformation> related;
    for (const Symbol& symbol : module.symbols) {
      if (symbol.kind == SymbolKind::Function && symbol.name == name) {
        message += "; it is defined later, so declare a prototype before the call";
        std::string note(1, '\'');
        note += name;
        note += "' is defined here";
        related.push_back({symbol.nameRange, std::move(note)});
        break;
      }
    }
    context.report("SEM004", Category::Semantic, reference.range, std::move(message), std::move(related));
  }
}

}  // namespace ptx

// ASM006 duplicate-definition-when-inlined
//
// What it does: reports a `.reg` declaration or a label at the top level of an asm template
// (outside any `{ }`) when the statement can be emitted more than once into one PTX function:
// in a `__device__` function (inlined at each call), a function template, a lambda, a macro, or
// a loop that may be unrolled.
//
// Why is this bad: nvcc pastes the template at every copy; the second copy declares the same
// name again and ptxas stops with "Duplicate definition of variable 'p'" (or of the label).
//
// Example:
//     __device__ bool elect() {
//       uint32_t r;
//       asm volatile(".reg .pred p;\n elect.sync _|p, 0xffffffff;\n selp.u32 %0, 1, 0, p;" : "=r"(r));
//       return r;
//     }
//
// Use instead:
//     asm volatile("{\n .reg .pred p;\n elect.sync _|p, 0xffffffff;\n selp.u32 %0, 1, 0, p;\n}" : "=r"(r));
//
// Fix: wrap the template in `{ }` (a PTX block scope), or make labels unique with `%=`.
//
// References: docs/inline-ptx.md §3 (`.reg` and labels); PTX ISA §11.3 (scoping).
#include "inline_asm/AsmRuleContext.h"

namespace ptx {
namespace {

// Why the statement may be pasted twice, or empty when it is emitted once.
std::string_view whyRepeated(const CheckedStatement& checked) {
  const StatementPlacement& placement = checked.placement;
  if (checked.statement->macroName) return "it is in a macro, which may be expanded more than once";
  if (!placement.loops.empty()) return "it is in a loop, which nvcc may unroll";
  if (placement.isLambda) return "it is in a lambda, which is inlined at each call";
  if (placement.isTemplate) return "it is in a template, which is inlined at each call of each instance";
  if (placement.mayBeInlined) return "it is in a __device__ function, which nvcc inlines at each call";
  return {};
}

}  // namespace

void checkDuplicateDefinitionWhenInlined(const AsmRuleContext& context) {
  const Module& module = context.fragmentLint.module;
  for (const CheckedStatement& checked : context.statements) {
    if (checked.fragmentFunction == UINT32_MAX) continue;
    std::string_view why = whyRepeated(checked);
    if (why.empty()) continue;
    const FunctionInfo& function = module.functions[checked.fragmentFunction];
    if (function.bodyScope == kNoScope) continue;
    const Scope& scope = module.scopes[function.bodyScope];
    std::uint32_t lastDeclaration = UINT32_MAX;
    auto report = [&](SymbolId id, std::string_view what) {
      const Symbol& symbol = module.symbols[id];
      if (symbol.declarationRange.begin < checked.entry->bodyBegin) return;  // The operands' own registers.
      if (symbol.declarationRange.begin == lastDeclaration) return;          // `.reg .b32 lo, hi;` once.
      lastDeclaration = symbol.declarationRange.begin;
      ByteRange declaration{symbol.declarationRange.begin, symbol.nameRange.end};
      context.report("ASM006", context.sourceOf(checked, declaration),
                     concat({what, " '", symbol.name, "' is declared outside '{ }' and ", why,
                            ": a second copy makes ptxas stop with a duplicate definition; wrap the template in '{ }'"}));
    };
    for (SymbolId id : scope.symbols)
      if (module.symbols[id].kind == SymbolKind::Register) report(id, "register");
    for (SymbolId id : scope.labels) report(id, "label");
  }
}

}  // namespace ptx

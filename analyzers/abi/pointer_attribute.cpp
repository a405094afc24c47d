// ABI007 pointer-attribute
//
// What it does: reports a `.ptr` attribute that is not a well-formed kernel parameter
// attribute:
//   - `.ptr` on anything but a parameter of an `.entry` (a `.func` parameter or return
//     value, a `.callprototype` parameter, a variable);
//   - a pointed-to state space other than `.const`, `.global`, `.local` or `.shared`;
//   - `.ptr .align N` with N not a power of two.
//
// Why is this bad: `.ptr` tells the driver and compiler what a kernel's pointer argument
// points to; it means nothing elsewhere. ptxas stops with "Illegal placement of kernel
// parameter attribute" on a device-function parameter, with a syntax error for another
// space or for `.ptr` in a body declaration, and with "Alignment must be a power of two".
// (ptxas does not check the parameter's own type; neither does this rule.)
//
// Example:
//     .func (.param .b32 rv) dot3 (.param .u64 .ptr.global.align 16 v)
//     .visible .entry reduce (.param .u64 .ptr.shared.align 12 partial)
//
// Use instead:
//     .func (.param .b32 rv) dot3 (.param .u64 v)
//     .visible .entry reduce (.param .u64 .ptr.shared.align 16 partial)
//
// References: PTX ISA §5.1.6.2 and §5.1.6.3 (kernel function parameter attributes: .ptr),
// §5.1.6.4 (device function parameters).
#include <set>
#include <string>

#include "RuleContext.h"
#include "abi/AbiFacts.h"

namespace ptx {

void checkPointerAttribute(const RuleContext& context) {
  const Module& module = context.module;
  std::set<SymbolId> kernelParameters;
  for (const FunctionInfo& function : module.functions) {
    if (function.symbol == kNoSymbol || !module.symbols[function.symbol].isEntry) continue;
    kernelParameters.insert(function.parameters.begin(), function.parameters.end());
  }
  std::set<std::uint32_t> reported;  // A declaration with several declarators has one clause.
  for (SymbolId id = 0; id < module.symbols.size(); ++id) {
    const Symbol& symbol = module.symbols[id];
    if (!symbol.isPointer) continue;
    if (!context.keeps(symbol.declarationRange)) continue;  // Its findings lie in its declaration.
    auto shape = abi::shapeOfSymbol(context, id);
    if (!shape || !shape->isPointer || !reported.insert(shape->ptrClause.begin).second) continue;
    if (!kernelParameters.contains(id)) {
      std::string where = symbol.kind == SymbolKind::Parameter ? concat({"parameter '", symbol.name, "'"})
                                                               : concat({"variable '", symbol.name, "'"});
      context.report("ABI007", shape->ptrClause,
                     concat({".ptr on ", where, "; .ptr is an attribute of kernel (.entry) parameters only"}));
      continue;
    }
    std::string_view space = shape->ptrSpace;
    Modifier spaceId = shape->ptrSpaceId;
    if (!space.empty() && spaceId != Modifier::Const && spaceId != Modifier::Global && spaceId != Modifier::Local &&
        spaceId != Modifier::Shared) {
      context.report("ABI007", shape->ptrSpaceRange,
                     concat({spellingOf(Modifier::Ptr), space, " on kernel parameter '", symbol.name,
                             "': a pointer attribute names .const, .global, .local or .shared (or no space for a "
                             "generic address)"}));
    }
    if (shape->ptrAlignWritten && shape->ptrAlignment && !abi::isPowerOfTwo(*shape->ptrAlignment)) {
      context.report("ABI007", shape->ptrAlignValue,
                     concat({".ptr alignment ", std::to_string(*shape->ptrAlignment), " of kernel parameter '",
                             symbol.name, "' is not a power of two"}));
    }
  }
}

}  // namespace ptx

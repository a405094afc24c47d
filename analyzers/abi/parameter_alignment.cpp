// ABI001 parameter-alignment
//
// What it does: reports a `.param` parameter or `.param` variable (a function or kernel
// formal, a return parameter, or an argument declared in a body) whose `.align` is not a
// power of two, a device-function parameter aligned to more than 128 bytes, and a
// parameter array with a dimension of zero.
//
// Why is this bad: the calling convention lays parameters out at 1, 2, 4, 8, 16, 32, 64 or
// 128-byte boundaries. ptxas stops with "Alignment must be a power of two" for other values
// and with "has illegal alignment (must be aligned to 1, 2, 4, 8, 16, 32, 64, or 128
// bytes)" for a function parameter or call argument above 128. (A kernel parameter may be
// aligned beyond 128.) A zero-sized array is accepted by ptxas but passes nothing: the
// callee can read no byte of it, and the size is almost always a generator bug.
//
// Example:
//     .func (.param .align 256 .b8 ret[256]) make_tile (.param .align 8 .b8 cfg[0])
//
// Use instead:
//     .func (.param .align 16 .b8 ret[256]) make_tile (.param .align 8 .b8 cfg[8])
//
// References: PTX ISA §7.1 (function declarations and definitions, parameter alignment),
// §5.1.6 (parameter state space), §5.4.5 (variables: .align); PTX Writer's Guide to
// Interoperability §3.3 (parameter passing).
#include <set>
#include <string>

#include "RuleContext.h"
#include "abi/AbiFacts.h"

namespace ptx {

void checkParameterAlignment(const RuleContext& context) {
  const Module& module = context.module;
  // Parameters of kernels may be aligned beyond 128 (ptxas accepts it).
  std::set<SymbolId> kernelParameters;
  for (const FunctionInfo& function : module.functions) {
    if (function.symbol == kNoSymbol || !module.symbols[function.symbol].isEntry) continue;
    kernelParameters.insert(function.parameters.begin(), function.parameters.end());
  }
  std::set<std::uint32_t> reported;  // Declarations with several declarators share a clause.
  for (SymbolId id = 0; id < module.symbols.size(); ++id) {
    const Symbol& symbol = module.symbols[id];
    if (symbol.spaceId != Modifier::Param) continue;
    if (symbol.kind != SymbolKind::Parameter && symbol.kind != SymbolKind::Variable) continue;
    if (!context.keeps(symbol.declarationRange)) continue;  // Its findings lie in its declaration.
    auto shape = abi::shapeOfSymbol(context, id);
    if (!shape) continue;
    bool kernel = kernelParameters.contains(id);
    if (shape->alignWritten && shape->alignment && reported.insert(shape->alignValue.begin).second) {
      std::uint64_t align = *shape->alignment;
      std::string value = std::to_string(align);
      if (!abi::isPowerOfTwo(align)) {
        context.report("ABI001", shape->alignValue,
                       concat({"alignment ", value, " of parameter '", symbol.name,
                               "' is not a power of two; use 1, 2, 4, 8, 16, 32, 64 or 128"}));
      } else if (align > 128 && !kernel) {
        context.report("ABI001", shape->alignValue,
                       concat({"alignment ", value, " of parameter '", symbol.name,
                               "' is over 128; the ABI aligns parameters to at most 128 bytes"}));
      }
    }
    if (shape->hasZeroDimension) {
      context.report("ABI001", symbol.nameRange,
                     concat({"parameter array '", symbol.name, "' has size zero; it passes no data"}));
    }
  }
}

}  // namespace ptx

// ABI008 unsized-parameter-position
//
// What it does: reports an unsized array parameter (`.param .align 8 .b8 args[]`) that is
// not the last input parameter of a `.func`, that is a return value, that is a kernel
// (`.entry`) parameter, or that appears in a module older than PTX ISA 6.0.
//
// Why is this bad: an unsized last parameter is how PTX passes a variable number of
// arguments (the caller packs them into one byte array, or leaves it out); only the last
// input can be open-ended. ptxas stops with "Only the last input parameter can be an
// incomplete array", "Output parameter cannot be an incomplete array", "Parameter to entry
// function cannot be an incomplete array", or "Feature 'Unsized Array Parameter' requires
// PTX ISA .version 6.0 or later".
//
// Example:
//     .func log_event (.param .align 8 .b8 args[], .param .b64 fmt)
//
// Use instead:
//     .func log_event (.param .b64 fmt, .param .align 8 .b8 args[])
//
// References: PTX ISA §7.2 (variadic functions), "Kernel and Function Directives: .func"
// (the last parameter may be an unsized .b8 array, PTX ISA 6.0).
#include <string>

#include "RuleContext.h"
#include "abi/AbiFacts.h"

namespace ptx {

void checkUnsizedParameterPosition(const RuleContext& context) {
  const Module& module = context.module;
  const ModuleHeader& header = module.header;
  bool oldVersion = header.version && (header.versionMajor < 6);
  std::string version = std::to_string(header.versionMajor) + "." + std::to_string(header.versionMinor);
  for (const FunctionInfo& function : module.functions) {
    if (function.symbol == kNoSymbol || function.hasSyntaxErrors) continue;
    const Symbol& owner = module.symbols[function.symbol];
    auto visit = [&](SymbolId id, bool isReturn, bool isLast) {
      const Symbol& symbol = module.symbols[id];
      if (!symbol.isArray || symbol.spaceId != Modifier::Param) return;
      if (!context.keeps(symbol.declarationRange)) return;  // Its finding lies in its declaration.
      auto shape = abi::shapeOfSymbol(context, id);
      if (!shape || !shape->unsized) return;
      std::string message;
      if (isReturn) {
        message = concat({"return parameter '", symbol.name, "' of '", owner.name,
                          "' is an unsized array; only the last input parameter may be one"});
      } else if (owner.isEntry) {
        message = concat({"kernel parameter '", symbol.name, "' of '", owner.name,
                          "' is an unsized array; only a device function's last input parameter may be one"});
      } else if (!isLast) {
        message = concat({"unsized array parameter '", symbol.name, "' of '", owner.name,
                          "' is not the last input parameter; only the last one may be unsized"});
      } else if (oldVersion) {
        message = concat({"unsized array parameter '", symbol.name, "' needs PTX ISA 6.0; the module is .version ",
                          version});
      } else {
        return;
      }
      context.report("ABI008", shape->declaration, std::move(message));
    };
    for (SymbolId id : function.returns) visit(id, true, false);
    for (std::size_t i = 0; i < function.parameters.size(); ++i) {
      visit(function.parameters[i], false, i + 1 == function.parameters.size());
    }
  }
}

}  // namespace ptx

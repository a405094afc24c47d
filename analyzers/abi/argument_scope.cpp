// ABI005 argument-scope
//
// What it does: reports a `.param` call argument or return variable that is not a `.param`
// variable declared in the calling function's body: a formal parameter of the caller
// (passed on unchanged, or used to receive a return value) or a `.param` variable
// declared at module scope.
//
// Why is this bad: call arguments in `.param` space are a call-site mapping that must live
// in the caller's local scope. ptxas stops with "Formal parameter 'x' declared in .param
// space cannot be used as argument to call" for a formal, and with "Parameter variables may
// not be declared at module scope" for a module-scope one.
//
// Example:
//     .func (.param .b32 rv) scale2 (.param .b32 x)
//     {
//         .param .b32 tmp;
//         call.uni (tmp), scale, (x);          // x is scale2's own formal parameter
//         ...
//
// Use instead:
//     .func (.param .b32 rv) scale2 (.param .b32 x)
//     {
//         .reg .b32 %r<2>;
//         ld.param.b32 %r1, [x];
//         {
//         .param .b32 arg0;
//         st.param.b32 [arg0], %r1;
//         .param .b32 tmp;
//         call.uni (tmp), scale, (arg0);
//         ...
//
// References: PTX ISA §7.1 (function declarations and definitions: "a .param argument must
// be declared within the local scope of the caller"), §5.1.6 (parameter state space).
#include <string>

#include "RuleContext.h"

namespace ptx {

void checkArgumentScope(const RuleContext& context) {
  const Module& module = context.module;
  for (const InstructionSite& site : module.instructions) {
    if (!site.isCall || site.inDamagedCode) continue;
    for (std::uint32_t i = 0; i < site.operandCount; ++i) {
      const InstructionOperand& operand = module.operands[site.firstOperand + i];
      if (operand.shape != OperandShape::Symbol || operand.symbol == kNoSymbol) continue;
      const Symbol& symbol = module.symbols[operand.symbol];
      if (symbol.spaceId != Modifier::Param) continue;
      std::string_view role = i < site.callReturnCount ? "return variable" : "argument";
      if (symbol.kind == SymbolKind::Parameter) {
        context.report("ABI005", operand.range,
                       concat({"call ", role, " '", symbol.name,
                               "' is a formal parameter of the calling function; declare a .param variable in "
                               "the body and copy the value through it"}),
                       {{symbol.declarationRange, "declared here"}});
      } else if (symbol.scope == 0) {
        context.report("ABI005", operand.range,
                       concat({"call ", role, " '", symbol.name,
                               "' is a module-scope .param variable; .param arguments must be declared in the "
                               "calling function's body"}),
                       {{symbol.declarationRange, "declared here"}});
      }
    }
  }
}

}  // namespace ptx

// CSQ002 predicated-parameter-transfer
//
// What it does: reports a guard predicate (`@%p` or `@!%p`) on an `st.param` that writes a
// call argument, or on an `ld.param` that reads a call's return value: any access to a
// `.param` variable declared inside a function body.
//
// Why is this bad: PTX requires the argument stores and return-value loads of a call to run
// unconditionally. ptxas stops with "Illegal to predicate instruction 'st.param' with
// operand ..." (or 'ld.param'). Guarding the `call` itself is allowed, and so is a guard on
// an `ld.param` or `st.param` of the function's own parameters and return value.
//
// Example:
//     .param .b32 arg0;
//     @%p st.param.b32 [arg0], %r1;
//     call.uni f, (arg0);
//
// Use instead:
//     .param .b32 arg0;
//     selp.b32 %r2, %r1, 0, %p;      // pick the value first
//     st.param.b32 [arg0], %r2;
//     call.uni f, (arg0);
//
// Fix: where the call carries the same guard as the store, removing the store's guard
// changes nothing the call can see; the quick fix does that. Otherwise pick the value with
// selp (or guard the whole call) and store it unconditionally.
//
// References: PTX ISA §7.1 (function declarations and definitions, caller restrictions);
// the ld, st, selp and call instruction pages.
#include <string>

#include "CallSequence.h"
#include "RuleContext.h"

namespace ptx {
namespace {

// The call of the function body [first, end) that names `variable` as an argument (stores)
// or a return value (loads), nearest after (stores) or before (loads) `index`; or UINT32_MAX.
std::uint32_t callUsing(const Module& module, std::uint32_t first, std::uint32_t end, std::uint32_t index,
                        SymbolId variable, bool store) {
  auto uses = [&](const InstructionSite& call) {
    if (!call.isCall) return false;
    std::uint32_t from = store ? call.callReturnCount : 0;
    std::uint32_t to = store ? call.operandCount : call.callReturnCount;
    for (std::uint32_t i = from; i < to && i < call.operandCount; ++i) {
      if (module.operands[call.firstOperand + i].symbol == variable) return true;
    }
    return false;
  };
  if (store) {
    for (std::uint32_t i = index + 1; i < end; ++i) {
      if (uses(module.instructions[i])) return i;
    }
    for (std::uint32_t i = index; i-- > first;) {
      if (uses(module.instructions[i])) return i;
    }
  } else {
    for (std::uint32_t i = index; i-- > first;) {
      if (uses(module.instructions[i])) return i;
    }
    for (std::uint32_t i = index + 1; i < end; ++i) {
      if (uses(module.instructions[i])) return i;
    }
  }
  return UINT32_MAX;
}

}  // namespace

void checkPredicatedParameterTransfer(const RuleContext& context) {
  const Module& module = context.module;
  for (const FunctionInfo& function : module.functions) {
    if (function.hasSyntaxErrors || function.instructionCount == 0) continue;
    std::uint32_t first = function.firstInstruction;
    std::uint32_t end = first + function.instructionCount;
    for (std::uint32_t index = first; index < end && index < module.instructions.size(); ++index) {
      const InstructionSite& site = module.instructions[index];
      if (!site.isGuarded() || site.inDamagedCode) continue;
      ParamTransfer transfer = paramTransferOf(context, site);
      if (transfer.kind == ParamTransferKind::None) continue;
      bool store = transfer.kind == ParamTransferKind::Store;
      std::string_view name = module.symbols[transfer.variable].name;
      std::uint32_t callIndex = callUsing(module, first, end, index, transfer.variable, store);
      std::string message = concat({"guard '", context.textOf(site.guard), "' on ", store ? "st.param" : "ld.param"});
      if (callIndex == UINT32_MAX) {
        message += concat({" of the call parameter variable '", name, "'"});
      } else {
        const InstructionSite& call = module.instructions[callIndex];
        message += store ? concat({" that sets argument '", name, "' of ", describeCall(context, call)})
                         : concat({" that reads the return value '", name, "' of ", describeCall(context, call)});
      }
      message += store ? "; ptxas rejects predicated argument stores: compute the value with selp first and store it "
                         "unconditionally (or guard the call)"
                       : "; ptxas rejects predicated return-value loads: load unconditionally and select the result "
                         "with selp afterwards";
      std::vector<RelatedInformation> related;
      if (callIndex != UINT32_MAX) related.push_back({module.spellingOf(module.instructions[callIndex]), "the call"});
      context.report("CSQ002", site.guard, std::move(message), std::move(related));
      // The call under the very same guard: the store only matters when the call runs, so
      // dropping its guard changes nothing the call can observe.
      if (store && callIndex != UINT32_MAX) {
        const InstructionSite& call = module.instructions[callIndex];
        if (callIndex > index && call.isGuarded() && context.textOf(call.guard) == context.textOf(site.guard)) {
          context.attachFix(
              concat({"Remove the guard (the call has the same guard '", context.textOf(site.guard), "')"}),
              {{ByteRange{site.guard.begin, site.opcode.begin}, ""}}, /*isPreferred=*/true);
        }
      }
    }
  }
}

}  // namespace ptx

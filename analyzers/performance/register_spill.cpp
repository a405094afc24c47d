// PRF001 register-spill
//
// What it does: estimates the registers of each kernel and function (the lowering, liveness
// and allocation of analyzers/registers) and reports one whose values do not fit the
// register budget that applies to it — `.maxnreg`, the ceiling that `.maxntid` with
// `.minnctapersm` implies, or the architectural 255 — so that ptxas will spill some of them
// to local memory.
//
// Why is this bad: a spilled value lives in local memory, which is cached device memory:
// every reload costs tens to hundreds of cycles where a register costs none. ptxas spills
// silently (`ptxas -v` prints "bytes spill stores"), and the usual cause is a launch bound or
// `.maxnreg` that was set for another version of the kernel.
//
// Example:
//     .entry k(.param .u64 p) .maxnreg 32
//     { ... 48 values live at once inside the loop ... }
//
// Use instead: raise `.maxnreg` (or relax the launch bounds), or keep fewer values live
// across the hot loop (recompute cheap ones, split the loop).
//
// The finding is an estimate: it is reported only when the values that do not fit are at
// least 4 registers and at least an eighth of the budget, well beyond the estimate's usual
// error (bench/registers_bench: within 2 registers of ptxas for most kernels).
//
// References: PTX ISA §11.4 (.maxnreg, .maxntid, .minnctapersm); CUDA C++ Programming Guide,
// "Launch bounds" and "Maximum number of registers per thread"; docs/cuda-facts §4.3.
#include <string>

#include "RuleContext.h"
#include "registers/RegisterPressure.h"

namespace ptx {
namespace {

// An upper bound of the 32-bit registers a function can need at once: every register
// declared in its body, each whole range counted. When even that fits, nothing can spill
// and the estimate is not worth computing.
std::uint64_t declaredRegisterUnits(const Module& module, const FunctionInfo& function) {
  std::uint64_t units = 0;
  auto add = [&](SymbolId id) {
    const Symbol& symbol = module.symbols[id];
    if (!symbol.isRegister() || symbol.type == ".pred") return;
    std::uint64_t bytes = flow::typeSizeInBytes(symbol.type).value_or(4);
    std::uint64_t each = bytes >= 16 ? 4 : bytes == 8 ? 2 : 1;
    units += each * std::max<std::uint64_t>(symbol.rangeCount, 1);
  };
  for (SymbolId parameter : function.parameters) add(parameter);
  for (ScopeId scope = 0; scope < module.scopes.size(); ++scope) {
    // The body scope and the blocks nested in it.
    for (ScopeId s = scope; s != kNoScope && s < module.scopes.size(); s = module.scopes[s].parent) {
      if (s == function.bodyScope) {
        for (SymbolId id : module.scopes[scope].symbols) add(id);
        break;
      }
    }
  }
  return units;
}

}  // namespace

void checkRegisterSpill(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (function.bodyScope == kNoScope || function.instructionCount == 0 || function.hasSyntaxErrors) continue;
    // The budget can only be below 255 through .maxnreg or launch bounds; without them only a
    // function with more than 255 registers' worth of declarations can spill.
    if (declaredRegisterUnits(module, function) <= 24) continue;
    bool bounded = false;
    for (const HeaderDirective& directive : function.directives) {
      bounded = bounded || directive.name == ".maxnreg" || directive.name == ".maxntid" || directive.name == ".minnctapersm";
    }
    if (!bounded && declaredRegisterUnits(module, function) <= 255) continue;
    registers::RegisterEstimate estimate = registers::estimateFunction(context.text, module, context.flows, f);
    std::uint32_t margin = std::max<std::uint32_t>(4, estimate.budget / 8);
    if (estimate.spilledUnits < margin) continue;
    const Symbol& symbol = module.symbols[function.symbol];
    context.warn("PRF001", Category::Performance, symbol.nameRange,
                 concat({"'", symbol.name, "' needs about ", std::to_string(estimate.registers + estimate.spilledUnits),
                         " registers but its budget is ", std::to_string(estimate.budget), " (",
                         estimate.budgetReason, "): about ", std::to_string(estimate.spilledUnits),
                         " registers' worth of values would spill to local memory (estimate)"}));
  }
}

}  // namespace ptx

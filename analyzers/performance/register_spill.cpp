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
#include <cstdint>
#include <string>
#include <vector>

#include "RuleContext.h"
#include "registers/RegisterPressure.h"

namespace ptx {
namespace {

// Per function, an upper bound of the 32-bit registers it can need at once: every register
// declared in its body (nested blocks included) and its register parameters, each whole
// range counted. When even that fits, nothing can spill and the estimate is not worth
// computing. One pass over the scopes for the whole module: a scope belongs to the function
// whose body is its nearest ancestor that is a body.
std::vector<std::uint64_t> declaredRegisterUnits(const Module& module) {
  std::vector<std::uint64_t> units(module.functions.size(), 0);
  std::vector<std::size_t> functionOfBody(module.scopes.size(), SIZE_MAX);
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    if (module.functions[f].bodyScope < module.scopes.size()) functionOfBody[module.functions[f].bodyScope] = f;
  }
  auto add = [&](std::size_t f, SymbolId id) {
    const Symbol& symbol = module.symbols[id];
    if (!symbol.isRegister() || symbol.type == ".pred") return;
    units[f] += registers::registerUnits(symbol) * std::max<std::uint64_t>(symbol.rangeCount, 1);
  };
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    for (SymbolId parameter : module.functions[f].parameters) add(f, parameter);
  }
  for (ScopeId scope = 0; scope < module.scopes.size(); ++scope) {
    ScopeId s = scope;
    while (s != kNoScope && s < module.scopes.size() && functionOfBody[s] == SIZE_MAX) s = module.scopes[s].parent;
    if (s == kNoScope || s >= module.scopes.size()) continue;
    for (SymbolId id : module.scopes[scope].symbols) add(functionOfBody[s], id);
  }
  return units;
}

}  // namespace

void checkRegisterSpill(const RuleContext& context) {
  const Module& module = context.module;
  std::vector<std::uint64_t> declared = declaredRegisterUnits(module);
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (function.bodyScope == kNoScope || function.instructionCount == 0 || function.hasSyntaxErrors) continue;
    // The budget can only be below 255 through .maxnreg or launch bounds (and never below
    // 24); without them only a function with more than 255 registers' worth of declarations
    // can spill.
    if (declared[f] <= 24) continue;
    bool bounded = false;
    for (const HeaderDirective& directive : function.directives) {
      bounded = bounded || directive.name == ".maxnreg" || directive.name == ".maxntid" || directive.name == ".minnctapersm";
    }
    if (!bounded && declared[f] <= 255) continue;
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

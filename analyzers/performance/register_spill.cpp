// PRF001 register-spill
//
// What it does: reports a kernel or function that must hold more values at once than the
// register budget that applies to it —
// `.maxnreg`, the ceiling that `.maxntid` with `.minnctapersm` implies, or the architectural
// 255 — so that ptxas must spill some of them to local memory.
//
// Why is this bad: a spilled value lives in local memory, which is cached device memory:
// every reload costs tens to hundreds of cycles where a register costs none. ptxas spills
// silently (`ptxas -v` prints "bytes spill stores"), and the usual cause is a launch bound or
// `.maxnreg` that was set for another version of the kernel.
//
// The count is a lower bound, not the estimate (`ptxlint --report registers`): at a loop's
// head every value the loop carries (an accumulator) is alive at once, whatever order ptxas
// gives the instructions, and each needs its own register (integer values are not counted,
// since ptxas merges induction variables and keeps warp-uniform ones in uniform registers);
// and values written by instructions ptxas keeps in order (volatile and atomic accesses,
// fences, barriers) stay alive across the later ordered instructions their uses wait for.
// The estimate, which models scheduling and allocation, can be far off on code unlike what
// it was measured on, so it never raises this warning on its own; but it must agree: the low
// end of its calibrated range (registers/EstimateRange.h, for what the function demands: the
// estimate plus what it spills) must be above the budget too, and is quoted beside the bound.
//
// Example:
//     .entry k(.param .u64 p) .maxnreg 32
//     { ... a loop that updates 48 .f32 accumulators ... }
//
// Use instead: raise `.maxnreg` (or relax the launch bounds), or carry fewer values through
// the loop (a smaller tile per thread).
//
// References: PTX ISA §11.4 (.maxnreg, .maxntid, .minnctapersm); CUDA C++ Programming Guide,
// "Launch bounds" and "Maximum number of registers per thread"; docs/cuda-facts §4.3.
#include <cstdint>
#include <string>
#include <vector>

#include "RuleContext.h"
#include "registers/CarriedValues.h"
#include "registers/EstimateRange.h"
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
    if (!symbol.isRegister() || symbol.typeId == Modifier::Pred) return;
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
    if (!registers::hasRegisterBounds(function) && declared[f] <= 255) continue;
    registers::RegisterBudget budget = registers::registerBudget(function);
    if (declared[f] <= budget.registers) continue;
    // Two sure costs, whichever is larger: the values a loop carries, and the values that
    // instructions ptxas keeps in order force to stay alive together.
    registers::FunctionRegisterAccesses accesses = registers::registerAccessesOf(module, context.flows, f);
    registers::CarriedLowerBound carried = registers::carriedLowerBound(module, context.flows, f, accesses);
    registers::OrderedLowerBound ordered;
    if (carried.units <= budget.registers) {
      ordered = registers::orderedLowerBound(module, context.flows, f, accesses);
    }
    std::uint32_t bound = std::max(carried.units, ordered.units);
    if (bound <= budget.registers) continue;
    registers::RegisterEstimate estimate = registers::estimateFunction(context.text, module, context.flows, f);
    // The estimate's range must agree that the demand passes the budget.
    std::uint32_t demand = estimate.registers + estimate.spilledUnits;
    registers::RangeKind kind = registers::rangeKindOf(module, function, estimate);
    std::uint32_t lowEnd = registers::demandLowEnd(demand, kind);
    if (lowEnd <= budget.registers) continue;
    const Symbol& symbol = module.symbols[function.symbol];
    std::vector<RelatedInformation> related;
    std::string why;
    if (carried.units >= ordered.units) {
      why = " registers of floating-point values through a loop";
      related.push_back({module.instructions[carried.headInstruction].statement,
                         concat({std::to_string(carried.units),
                                 " registers of floating-point values are live here, at the head of a loop that updates them"})});
    } else {
      why = " registers of values alive at once across instructions ptxas keeps in order";
      related.push_back({module.instructions[ordered.instruction].statement,
                         concat({std::to_string(ordered.units),
                                 " registers of values loaded before this ordered access are still needed after it"})});
    }
    context.report("PRF001", symbol.nameRange,
                   concat({"'", symbol.name, "' needs at least ", std::to_string(bound), why,
                           ", but its budget is ", std::to_string(budget.registers), " (", budget.reason,
                           "): ptxas must spill to local memory (the estimate of the whole function is about ",
                           std::to_string(demand), " registers, at least ", std::to_string(lowEnd),
                           " by its calibrated range)"}),
                   std::move(related));
  }
}

}  // namespace ptx

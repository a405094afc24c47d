// PRF002 occupancy-cliff
//
// What it does: for each kernel that declares its block size (`.reqntid` or `.maxntid`),
// estimates its registers and the occupancy they allow on the module's target, and reports a
// kernel that sits just above a register cliff: a few registers fewer would let one more
// block of that size be resident on each SM.
//
// Why is this bad: registers are allocated per warp in fixed units, so occupancy falls in
// steps. A kernel at 66 registers with 256-thread blocks fits 3 blocks on an sm_90 SM; at 64
// it would fit 4, a third more warps to hide latency. Such a kernel is often one variable or
// one unrolled iteration away from the better step.
//
// Example:
//     .entry k(...) .reqntid 256, 1, 1
//     { ... about 66 registers live at the peak ... }
//
// Use instead: trim what is live at the peak (the register report names it: `ptxlint
// --report registers`), or bound the registers with `.maxnreg` / `.minnctapersm` and check
// with `ptxas -v` that nothing spills.
//
// The finding is information, not a defect, and an estimate: it is reported only when the
// whole calibrated range of the estimate (registers/EstimateRange.h, as in `ptxlint --report
// registers`) lies past the cliff, and its low end within max(2, a tenth) of it: even the
// fewest registers ptxas is expected to use are a few too many. Because the estimate's error is
// of the same order as that distance, the rule is off by default: turn it on with
// `ptxlint --select PRF002` (or `performance`) or `"rules": {"PRF002": "on"}` in .ptxls.json.
//
// References: CUDA C++ Programming Guide, "Occupancy calculator" and the register
// allocation rules (256 registers per warp, 4 sub-partitions); docs/cuda-facts §4.1-4.2.
#include <cstdio>
#include <string>

#include "RuleContext.h"
#include "registers/EstimateRange.h"
#include "registers/RegisterReport.h"

namespace ptx {

void checkOccupancyCliff(const RuleContext& context) {
  const Module& module = context.module;
  std::string target = registers::reportTarget(module);
  std::optional<registers::SmLimits> limits = registers::limitsForTarget(target);
  if (!limits) return;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    const Symbol& symbol = module.symbols[function.symbol];
    if (!symbol.isEntry || function.bodyScope == kNoScope || function.instructionCount == 0 || function.hasSyntaxErrors) {
      continue;
    }
    std::uint64_t threads = registers::declaredThreadsPerBlock(function).value_or(0);
    if (threads == 0 || threads > limits->maxThreadsPerBlock) continue;
    registers::RegisterEstimate estimate = registers::estimateFunction(context.text, module, context.flows, f);
    registers::OccupancyInput input;
    input.registersPerThread = estimate.registers;
    input.threadsPerBlock = static_cast<std::uint32_t>(threads);
    registers::Occupancy occupancy = registers::computeOccupancy(*limits, input);
    if (occupancy.limitedBy != "registers" || occupancy.fewerRegistersForMoreBlocks == 0) continue;
    // The whole range past the cliff, its low end just past it.
    registers::EstimateRange range =
        registers::estimateRange(estimate.registers, registers::rangeKindOf(module, function, estimate));
    range.high = std::min(range.high, std::max(estimate.budget, estimate.registers));
    if (range.low <= occupancy.fewerRegistersForMoreBlocks) continue;
    std::uint32_t margin = std::max<std::uint32_t>(2, range.low / 10);
    if (occupancy.fewerRegistersForMoreBlocks + margin < range.low) continue;
    double now = occupancy.fraction;
    double then = static_cast<double>(occupancy.blocksWithFewerRegisters * occupancy.warpsPerBlock) /
                  static_cast<double>(std::max<std::uint32_t>(occupancy.maxWarpsPerSm, 1));
    char message[400];
    std::snprintf(message, sizeof message,
                  "'%s' needs about %u registers (%u-%u), which lets %u blocks of %llu threads run per SM on %s (%.0f%% "
                  "occupancy); at %u registers %u blocks would fit (%.0f%%) (estimate)",
                  symbol.name.c_str(), estimate.registers, range.low, range.high, occupancy.blocksPerSm,
                  static_cast<unsigned long long>(threads), target.c_str(), 100 * now,
                  occupancy.fewerRegistersForMoreBlocks, occupancy.blocksWithFewerRegisters, 100 * std::min(then, 1.0));
    context.report("PRF002", symbol.nameRange, message);
  }
}

}  // namespace ptx

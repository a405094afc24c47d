// RegisterPressure: the estimate's coordinating functions (see RegisterPressure.h); each stage
// is in its own file.
#include "registers/RegisterPressure.h"

#include <algorithm>
#include <charconv>

#include "registers/Allocation.h"
#include "registers/Calls.h"
#include "registers/IfConversion.h"
#include "registers/InstructionClasses.h"
#include "registers/Liveness.h"
#include "registers/Pressure.h"
#include "registers/Schedule.h"
#include "registers/Unrolling.h"

namespace ptx::registers {
namespace {

// `setmaxnreg.inc/.dec N` (sm_90a warp specialization) resizes the warpgroup's registers at
// run time: the function is allocated, and ptxas reports, the largest N it asks for (0: none).
std::uint32_t largestSetmaxnreg(std::string_view text, const Module& module, const FunctionInfo& function) {
  std::uint32_t largest = 0;
  for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
    const InstructionSite& site = module.instructions[i];
    if (!module.factsOf(site).is(Family::Setmaxnreg) || site.operandCount == 0) continue;
    ByteRange range = module.operands[site.firstOperand].range;
    if (range.begin > range.end || range.end > text.size()) continue;
    std::string_view count = text.substr(range.begin, range.end - range.begin);
    std::uint32_t requested = 0;
    auto [end, error] = std::from_chars(count.data(), count.data() + count.size(), requested);
    if (error == std::errc() && end == count.data() + count.size() && requested <= 256) {
      largest = std::max(largest, requested);
    }
  }
  return largest;
}

}  // namespace

std::vector<RegisterEstimate> estimateRegisters(std::string_view text, const Module& module, flow::FlowCache& flows) {
  std::vector<RegisterEstimate> estimates;
  std::vector<std::size_t> estimateOf(module.functions.size(), SIZE_MAX);
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (function.bodyScope == kNoScope || function.instructionCount == 0 || function.hasSyntaxErrors) continue;
    estimateOf[f] = estimates.size();
    estimates.push_back(estimateFunction(text, module, flows, f));
  }
  // A caller needs its callee's registers on top of what it keeps across the call (whether
  // ptxas inlines the callee or calls it). Call chains are followed to a fixpoint; cycles
  // (recursion through several functions) stop growing at the architectural 255.
  for (std::size_t pass = 0; pass < estimates.size() + 1; ++pass) {
    bool changed = false;
    for (RegisterEstimate& estimate : estimates) {
      for (const auto& [callee, across] : estimate.directCalls) {
        if (estimateOf[callee] == SIZE_MAX) continue;
        std::uint32_t needed = std::min<std::uint32_t>(255, estimates[estimateOf[callee]].registers + across);
        if (needed > estimate.registers) {
          estimate.registers = needed;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return estimates;
}

RegisterEstimate estimateFunction(std::string_view text, const Module& module, flow::FlowCache& flows, std::size_t f) {
  const FunctionInfo& function = module.functions[f];
  flow::FunctionFlow& flow = flows.flowOfFunction(f);
  std::uint32_t first = function.firstInstruction;
  LoweredFunction lowered = lowerFunction(text, module, flow);
  const std::vector<flow::BasicBlock> regions = ifConvert(module, flow, lowered);

  RegionLiveness liveness(lowered, regions, first);
  liveness.solve();
  std::vector<bool> loopRegions = blocksInLoops(regions);
  rematerialize(lowered, regions, loopRegions, first, liveness);

  // ptxas hoists loads while the pressure stays under the registers that keep every warp
  // slot usable (the same ceiling its unrolling respects); past it, it schedules for
  // registers. The target is in 32-bit units, without R1 and the two reserved registers.
  std::uint32_t sm = compiledArchitecture(text, module);
  std::int64_t pressureTarget = std::max<std::int64_t>(
      kLowestPressureTarget, std::int64_t{fullOccupancyRegisters(sm)} - kStackPointer - kReportedReserve);
  liveness.setOrder(scheduleBlocks(module, flow, regions, lowered, [&](std::uint32_t b) {
    BlockLiveness block;
    liveness.liveIn(b).forEach([&](std::uint32_t v) {
      if (!lowered.values[v].predicate && !lowered.values[v].rematerializable)
        block.liveInUnits += lowered.values[v].units;
    });
    block.pressureTarget = pressureTarget;
    block.liveOut = [&liveness, b](std::uint32_t v) { return liveness.liveOut(b).contains(v); };
    return block;
  }));

  RegisterEstimate estimate;
  estimate.function = f;
  CallSites calls = classifyCalls(module, flows, f);
  LivePoints points = measurePressure(module, function, lowered, regions, liveness, loopRegions, calls, estimate);

  RegisterBudget budget = registerBudget(function);
  estimate.budget = budget.registers;
  estimate.budgetReason = budget.reason;
  // ptxas reports two registers more than the highest one its code touches, so the budget
  // leaves room for them.
  std::size_t valueCount = lowered.values.size();
  Allocation allocation = allocate(lowered, PointLists(valueCount, points.visits),
                                   PointLists(valueCount, points.heldPoints), points.firstPoint, points.pointCount,
                                   estimate.budget - kReportedReserve, fullOccupancyRegisters(sm) - kReportedReserve);
  estimate.registers = allocation.registers + kReportedReserve;
  estimate.spilledUnits = allocation.spilledUnits;

  // What ptxas adds around the allocation.
  // setmaxnreg resizes a warpgroup's registers after launch. What ptxas 13 allocates at launch
  // (sm_90a, measured on setmaxnreg.inc 232 / .dec 40 in one kernel; register_budget_test.cpp):
  // the code's own need when the kernel declares no register limit (8 registers), and the
  // largest count setmaxnreg asks for, capped by the limit, when it declares one — .maxnreg
  // (168 under .maxnreg 168, 232 under .maxnreg 240) or .minnctapersm with .maxntid (232 at
  // .maxntid 256 / .minnctapersm 1, 168 at 384 / 1). .maxntid or .reqntid alone is no limit.
  if (std::uint32_t largest = largestSetmaxnreg(text, module, function)) {
    estimate.afterSetmaxnreg = std::min(largest, kMostRegistersPerThread);
    bool declaresLimit = functionDirective(function, Modifier::Maxnreg).has_value() ||
                         functionDirective(function, Modifier::Minnctapersm).has_value();
    if (declaresLimit) estimate.registers = std::max(estimate.registers, std::min(largest, estimate.budget));
  }
  estimate.registers = std::max(estimate.registers, points.callFloor);
  estimate.registers = std::max(estimate.registers, unrolledLoopRegisters(text, module, flow, function, lowered, regions,
                                                                          estimate, estimate.registers));
  for (std::size_t callee : calls.abiCallees) estimate.directCalls.push_back({callee, 0});
  return estimate;
}

}  // namespace ptx::registers

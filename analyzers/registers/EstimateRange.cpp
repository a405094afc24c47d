// EstimateRange: the calibrated interval around a register estimate (see EstimateRange.h).
#include "registers/EstimateRange.h"

#include <algorithm>
#include <cmath>

#include "registers/InstructionClasses.h"

namespace ptx::registers {
namespace {

// The ratio ptxas / estimate per class, [kind][band], as {low, high}.
//
// How it was computed (`./build/bench/registers_bench --calibrate-range` prints this table):
// over the entry functions of the calibration corpus only — the accepted, non-debug files with
// ground truth in ../shared/corpus (ptxas-verdicts.json, nvcc/ground-truth.json) and in our
// corpus/ (corpus/ptxas-registers.json) — each function's ratio ptxas -v registers / estimate
// is put in its class (RangeKind × band of the estimate). The rule, fixed before any coverage
// was measured: low = the 5th percentile and high = the 95th percentile of the class's ratios
// (linear interpolation between the sorted ratios), a nominal 90% on the calibration set, the
// margin above the 80% asked for left to code unlike the corpus; a class with fewer than 30
// entries takes its kind's ratios over all bands, and a kind with fewer than 30 entries the
// ratios of all entries. Never computed on the validation set
// (corpus/registers-validation), which only reports the coverage they give.
// Regenerate after any change to the estimate.
constexpr RangeRatios kRangeRatios[kRangeKinds][kRangeBands] = {
    // registers_bench --calibrate-range, 2026-11-28, on 1454 calibration entries; per row the
    // entries of each band's class and where its ratios came from (class, kind or all).
    {{0.557, 1.340}, {0.692, 1.154}, {0.557, 1.340}, {0.557, 1.340}},  // calls: 8 kind, 55 class, 8 kind, 7 kind
    {{0.857, 1.768}, {0.818, 7.575}, {0.857, 1.654}, {0.818, 2.462}},  // textures: 38 class, 45 class, 30 class, 8 kind
    {{0.824, 1.250}, {0.833, 1.697}, {0.800, 1.195}, {0.824, 1.312}},  // loops: 548 class, 168 class, 40 class, 17 kind
    {{0.800, 1.353}, {0.828, 1.267}, {0.819, 1.333}, {0.819, 1.333}},  // straight: 435 class, 43 class, 0 kind, 4 kind
};

constexpr std::uint32_t kMaxRegisters = 255;

// The interval from one class's ratios, before monotonicity is enforced.
EstimateRange rawRange(std::uint32_t registers, RangeKind kind) {
  RangeRatios ratios = rangeRatiosFor(kind, rangeBandOf(registers));
  double estimate = static_cast<double>(registers);
  auto low = static_cast<std::uint32_t>(std::max(1.0, std::floor(estimate * ratios.low)));
  auto high = static_cast<std::uint32_t>(std::min<double>(kMaxRegisters, std::ceil(estimate * ratios.high)));
  return {std::min(low, registers), std::max(high, registers)};
}

}  // namespace

std::size_t rangeBandOf(std::uint32_t registers) {
  if (registers < 24) return 0;
  if (registers < 40) return 1;
  if (registers < 64) return 2;
  return 3;
}

RangeKind rangeKindOf(const Module& module, const FunctionInfo& function, const RegisterEstimate& estimate) {
  bool calls = false;
  bool textures = false;
  for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
    const InstructionSite& site = module.instructions[i];
    const InstructionFacts& facts = module.factsOf(site);
    calls = calls || site.isCall;
    textures = textures || classOf(facts).has(kTextureFetch) || facts.is(Family::Suld);
  }
  if (calls) return RangeKind::Calls;
  if (textures) return RangeKind::Textures;
  if (std::find(estimate.inLoop.begin(), estimate.inLoop.end(), true) != estimate.inLoop.end()) return RangeKind::Loops;
  return RangeKind::Straight;
}

const char* rangeKindName(RangeKind kind) {
  switch (kind) {
    case RangeKind::Calls: return "calls";
    case RangeKind::Textures: return "textures";
    case RangeKind::Loops: return "loops";
    case RangeKind::Straight: return "straight";
  }
  return "straight";
}

RangeRatios rangeRatiosFor(RangeKind kind, std::size_t band) {
  return kRangeRatios[static_cast<std::size_t>(kind)][std::min(band, kRangeBands - 1)];
}

EstimateRange estimateRange(std::uint32_t registers, RangeKind kind) {
  registers = std::clamp<std::uint32_t>(registers, 1, kMaxRegisters);
  // The ratios change between bands, so each end is the largest any estimate up to this one
  // gives: a larger estimate never gets a lower interval (at most 255 steps).
  EstimateRange range = rawRange(registers, kind);
  for (std::uint32_t smaller = 1; smaller < registers; ++smaller) {
    EstimateRange other = rawRange(smaller, kind);
    range.low = std::max(range.low, other.low);
    range.high = std::max(range.high, other.high);
  }
  range.low = std::min(range.low, registers);
  return range;
}

std::uint32_t demandLowEnd(std::uint32_t demand, RangeKind kind) {
  if (demand <= kMaxRegisters) return estimateRange(demand, kind).low;
  RangeRatios ratios = rangeRatiosFor(kind, kRangeBands - 1);
  auto scaled = static_cast<std::uint32_t>(std::floor(static_cast<double>(demand) * std::min(ratios.low, 1.0)));
  return std::max(estimateRange(kMaxRegisters, kind).low, scaled);
}

}  // namespace ptx::registers

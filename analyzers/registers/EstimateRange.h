// EstimateRange: the interval around a register estimate where ptxas's figure is expected to
// fall, from what kind of function it is and how large the estimate is.
//
// The estimate (RegisterPressure.h) is a point; its error depends on the kind of code (calls,
// texture fetches, loops) and on its magnitude. The interval is the estimate scaled by two
// quantiles of the ratio ptxas / estimate, measured per class on the calibration corpus only
// (`registers_bench --calibrate-range` recomputes them; the validation set is never read for
// them). docs/registers.md ("How far to trust it") states the rule and the coverage it gives.
//
// Pure functions: no I/O; the class is read from the module's facts and the estimate.
#pragma once

#include <cstdint>

#include "model/Module.h"
#include "registers/RegisterPressure.h"

namespace ptx::registers {

// What kind of function the estimate is for, by the feature the estimate follows least well
// (the first that applies, in this order).
enum class RangeKind : std::uint8_t {
  Calls,     // Calls a function (the ABI; ptxas may inline).
  Textures,  // Texture or surface fetches (issued far ahead of their use).
  Loops,     // Has a loop (unrolling, loop-carried values).
  Straight,  // None of these.
};
constexpr std::size_t kRangeKinds = 4;

// Bands of the estimate: [1, 24), [24, 40), [40, 64), [64, 255].
constexpr std::size_t kRangeBands = 4;
std::size_t rangeBandOf(std::uint32_t registers);

// The kind of a function with a body, from its instructions' facts and its estimate's loops.
RangeKind rangeKindOf(const Module& module, const FunctionInfo& function, const RegisterEstimate& estimate);

const char* rangeKindName(RangeKind kind);

// The two ratios ptxas / estimate that bound the interval of one class.
struct RangeRatios {
  double low = 1;
  double high = 1;
};

// The calibrated table (EstimateRange.cpp says how it was computed).
RangeRatios rangeRatiosFor(RangeKind kind, std::size_t band);

struct EstimateRange {
  std::uint32_t low = 0;
  std::uint32_t high = 0;
};

// The interval for an estimate of `registers` (clamped to [1, 255]): low <= registers <= high,
// both in [1, 255], and both non-decreasing in `registers` for a given kind.
EstimateRange estimateRange(std::uint32_t registers, RangeKind kind);

// The low end for a demand that may pass 255 registers (the estimate's registers plus what it
// spills), not clamped above: what PRF001 compares with a budget. Equal to
// estimateRange(demand, kind).low up to 255, non-decreasing beyond.
std::uint32_t demandLowEnd(std::uint32_t demand, RangeKind kind);

}  // namespace ptx::registers

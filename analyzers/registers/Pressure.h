// Pressure: the walk that turns liveness into what the estimate reports and the allocation
// needs: the 32-bit units live at each instruction, the peak and what lives there, the units
// live across each call, and the allocation points each value occupies (two per instruction:
// before it and after it).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "flow/FunctionFlow.h"
#include "model/Module.h"
#include "registers/Calls.h"
#include "registers/Liveness.h"
#include "registers/Lowering.h"

namespace ptx::registers {

struct RegisterEstimate;

// The allocation's input.
struct LivePoints {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> visits;      // (value, point) where it is live.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> heldPoints;  // (value, point) it is better kept at.
  std::vector<std::uint32_t> firstPoint;                            // Per value (UINT32_MAX: none).
  std::size_t pointCount = 0;
  std::uint32_t callFloor = 0;  // The ABI's floor around the calls through it (Calls.h).
};

// Walks every region in issue order; fills `estimate`'s liveUnits, inLoop, maxLiveUnits,
// maxLivePredicates, peakInstruction, liveAtPeak and directCalls.
LivePoints measurePressure(const Module& module, const FunctionInfo& function, const LoweredFunction& lowered,
                           const std::vector<flow::BasicBlock>& regions, const RegionLiveness& liveness,
                           const std::vector<bool>& loopRegions, const CallSites& calls, RegisterEstimate& estimate);

}  // namespace ptx::registers

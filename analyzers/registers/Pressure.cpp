// Pressure: live units per instruction, the peak, and the allocation points (see Pressure.h).
#include "registers/Pressure.h"

#include <algorithm>

#include "registers/Constants.h"
#include "registers/RegisterPressure.h"

namespace ptx::registers {

using flow::RegisterKey;

LivePoints measurePressure(const Module& module, const FunctionInfo& function, const LoweredFunction& lowered,
                           const std::vector<flow::BasicBlock>& regions, const RegionLiveness& liveness,
                           const std::vector<bool>& loopRegions, const CallSites& calls, RegisterEstimate& estimate) {
  std::uint32_t first = function.firstInstruction;
  std::size_t valueCount = lowered.values.size();
  const std::vector<std::uint32_t>& order = liveness.order();
  LivePoints points;
  points.pointCount = 2 * std::size_t{function.instructionCount};
  estimate.liveUnits.assign(function.instructionCount, 0);
  estimate.inLoop.assign(function.instructionCount, false);
  // Two allocation points per instruction: before it (2i) and after it (2i + 1).
  // (Points are recorded in walk order; the allocation only needs each value's first.)
  std::vector<std::pair<std::uint32_t, std::uint32_t>>& visits = points.visits;
  visits.reserve(4 * std::size_t{function.instructionCount});
  std::vector<std::uint32_t>& firstPoint = points.firstPoint;
  firstPoint.assign(valueCount, UINT32_MAX);
  // Predicates live in their own file, which the allocation does not model: no points.
  auto touch = [&](std::uint32_t v, std::uint32_t point) {
    if (lowered.values[v].predicate) return;
    visits.emplace_back(v, point);
    firstPoint[v] = std::min(firstPoint[v], point);
  };
  for (std::uint32_t v : lowered.liveAtEntry) touch(v, 0);
  std::vector<std::uint32_t> operandsOnly;
  for (std::uint32_t b = 0; b < regions.size(); ++b) {
    liveness.walk(b, liveness.liveOut(b), [&](std::uint32_t i, const ValueSet& liveAfter) {
      const LoweredInstruction& instruction = lowered.instructions[i - first];
      std::uint32_t point = i - first;
      // Two points around the instruction: before it (its operands, a rematerialized value
      // included, and what lives past it) and after it (what lives on: a result nobody reads
      // is not kept, as ptxas removes the instruction or writes RZ). A result may take the
      // register of an operand that dies here, so the pressure at the instruction is the
      // larger of the two, not their union. Both come from one walk over what lives after it.
      auto killed = [&](std::uint32_t v) {
        return !instruction.guardedDefs &&
               std::find(instruction.defs.begin(), instruction.defs.end(), v) != instruction.defs.end();
      };
      std::uint32_t unitsBefore = 0, unitsAfter = 0, predicatesBefore = 0, predicatesAfter = 0;
      auto add = [&](std::uint32_t v, std::uint32_t& units, std::uint32_t& predicates) {
        if (lowered.values[v].predicate) {
          ++predicates;
        } else {
          units += lowered.values[v].units;
        }
      };
      liveAfter.forEach([&](std::uint32_t v) {
        touch(v, 2 * point + 1);
        add(v, unitsAfter, predicatesAfter);
        if (!killed(v)) {
          touch(v, 2 * point);
          add(v, unitsBefore, predicatesBefore);
        }
      });
      // Operands not already counted (read here and dead after, or rematerialized here).
      operandsOnly.clear();
      for (std::size_t k = 0; k < instruction.uses.size(); ++k) {
        std::uint32_t u = instruction.uses[k];
        if (lowered.values[u].rematerializable && !instruction.materializes(k)) continue;
        if (liveAfter.contains(u) && !killed(u)) continue;
        if (std::find(operandsOnly.begin(), operandsOnly.end(), u) != operandsOnly.end()) continue;
        operandsOnly.push_back(u);
        touch(u, 2 * point);
        add(u, unitsBefore, predicatesBefore);
      }
      if (calls.throughAbi[point] || calls.calleeOf[point] != CallSites::kNoFunction) {
        std::uint32_t across = 0;
        liveAfter.forEach([&](std::uint32_t v) {
          const LoweredValue& value = lowered.values[v];
          bool result = std::find(instruction.defs.begin(), instruction.defs.end(), v) != instruction.defs.end();
          if (!value.predicate && !result) across += value.units;
        });
        if (calls.throughAbi[point]) {
          points.callFloor = std::max(points.callFloor, callRegisterFloor(across));
        } else {
          estimate.directCalls.push_back({calls.calleeOf[point], across});
        }
      }
      std::uint32_t units = std::max(unitsBefore, unitsAfter);
      std::uint32_t predicates = std::max(predicatesBefore, predicatesAfter);
      estimate.liveUnits[point] = static_cast<std::uint16_t>(std::min<std::uint32_t>(units, 0xFFFF));
      estimate.inLoop[point] = loopRegions[b];
      estimate.maxLivePredicates = std::max(estimate.maxLivePredicates, predicates);
      if (units > estimate.maxLiveUnits || (units == estimate.maxLiveUnits && estimate.liveAtPeak.empty())) {
        estimate.maxLiveUnits = units;
        estimate.peakInstruction = i;
        estimate.liveAtPeak.clear();
        auto listed = [&](std::uint32_t v) { return !lowered.values[v].predicate && !lowered.values[v].scratch; };
        bool beforeIsPeak = unitsBefore >= unitsAfter;
        liveAfter.forEach([&](std::uint32_t v) {
          if (listed(v) && (!beforeIsPeak || !killed(v))) estimate.liveAtPeak.push_back(lowered.values[v].reg);
        });
        if (beforeIsPeak) {
          for (std::uint32_t u : operandsOnly) {
            if (listed(u)) estimate.liveAtPeak.push_back(lowered.values[u].reg);
          }
        }
      }
    });
  }
  // A register a memory instruction reads is not rewritten by the next two instructions the
  // schedule issues (its operands are read after issue); a preference, not a constraint.
  // (value, point) pairs.
  std::vector<std::pair<std::uint32_t, std::uint32_t>>& heldPoints = points.heldPoints;
  for (std::uint32_t b = 0; b < regions.size(); ++b) {
    for (std::uint32_t position = regions[b].first; position < regions[b].end; ++position) {
      const LoweredInstruction& instruction = lowered.instructions[order[position - first]];
      if (!instruction.readsOperandsLate) continue;
      for (std::size_t k = 0; k < instruction.uses.size(); ++k) {
        std::uint32_t u = instruction.uses[k];
        if (lowered.values[u].predicate || (lowered.values[u].rematerializable && !instruction.materializes(k)))
          continue;
        for (std::uint32_t next = position + 1; next < regions[b].end && next <= position + kMemoryOperandHold; ++next) {
          std::uint32_t later = order[next - first];
          heldPoints.push_back({u, 2 * later});
          heldPoints.push_back({u, 2 * later + 1});
        }
      }
    }
  }
  std::stable_sort(estimate.liveAtPeak.begin(), estimate.liveAtPeak.end(), [&](RegisterKey a, RegisterKey b) {
    return registerUnits(module.symbols[a.symbol]) > registerUnits(module.symbols[b.symbol]);
  });
  return points;
}

}  // namespace ptx::registers

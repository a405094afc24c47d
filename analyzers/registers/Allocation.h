// Allocation: the fifth stage of the register estimate (RegisterPressure.h). First fit on
// exact lifetimes, R1 reserved, preferring the register bank the co-operands use less and
// registers no memory instruction just read (as ptxas does below the full-occupancy count).
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "registers/Lowering.h"

namespace ptx::registers {

// The allocation points each value is live at, per value: one flat array indexed by value
// (built from (value, point) pairs with a counting sort, so the walk that finds them does
// not grow a vector per value).
class PointLists {
 public:
  PointLists(std::size_t valueCount, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& visits)
      : start_(valueCount + 1, 0), points_(visits.size()) {
    for (const auto& [value, point] : visits) ++start_[value + 1];
    for (std::size_t v = 0; v < valueCount; ++v) start_[v + 1] += start_[v];
    std::vector<std::uint32_t> fill(start_.begin(), start_.end() - 1);
    for (const auto& [value, point] : visits) points_[fill[value]++] = point;
  }
  std::size_t size() const { return start_.size() - 1; }
  bool empty() const { return points_.empty(); }
  std::span<const std::uint32_t> of(std::uint32_t value) const {
    return {points_.data() + start_[value], start_[value + 1] - start_[value]};
  }

 private:
  std::vector<std::uint32_t> start_;
  std::vector<std::uint32_t> points_;
};

// The allocation's result: registers used (highest slot + 1, R1 included) and the 32-bit
// units that did not fit under the budget (spilled).
struct Allocation {
  std::uint32_t registers = 0;
  std::uint32_t spilledUnits = 0;
};

// Allocates every non-predicate value live at some point of `pointsOf`; `heldPoints` are the
// points where a value's register is better not rewritten (a memory instruction's late read),
// `firstPoint` each value's first point, `pointCount` the points in all. Registers stay below
// `budget`; the preferences may take registers past those already used only up to
// `comfortable`.
Allocation allocate(const LoweredFunction& lowered, const PointLists& pointsOf, const PointLists& heldPoints,
                    const std::vector<std::uint32_t>& firstPoint, std::size_t pointCount, std::uint32_t budget,
                    std::uint32_t comfortable);

}  // namespace ptx::registers

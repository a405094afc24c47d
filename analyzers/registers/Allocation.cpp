// Allocation: first-fit register allocation on exact lifetimes (see Allocation.h).
#include "registers/Allocation.h"

#include <algorithm>
#include <array>
#include <bit>
#include <optional>

#include "registers/Constants.h"

namespace ptx::registers {
namespace {

// The register file as a bit mask (256 registers: R0..R254 and RZ's slot).
using RegisterMask = std::array<std::uint64_t, 4>;

}  // namespace

// First-fit allocation on exact lifetimes: values in order of their first live point (wider
// ones first at a tie), each given the lowest slot aligned to its size (pairs at even,
// quads at multiples of four registers) that is free at every point where the value is live,
// lifetime holes included. For code that is almost SSA, as compiler-generated PTX is, this
// order colours the interference graph with close to max-live registers, as a graph
// colouring would, at a cost linear in the summed lifetimes.
Allocation allocate(const LoweredFunction& lowered, const PointLists& pointsOf, const PointLists& heldPoints,
                    const std::vector<std::uint32_t>& firstPoint, std::size_t pointCount, std::uint32_t budget,
                    std::uint32_t comfortable) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t v = 0; v < pointsOf.size(); ++v) {
    if (!pointsOf.of(v).empty() && !lowered.values[v].predicate) order.push_back(v);
  }
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (firstPoint[a] != firstPoint[b]) return firstPoint[a] < firstPoint[b];
    if (lowered.values[a].units != lowered.values[b].units) return lowered.values[a].units > lowered.values[b].units;
    return a < b;
  });
  // R1 holds the stack pointer in every function (SASS starts each kernel with
  // `MOV R1, c[0x0][0x28]`), so it is never allocated and counts in ptxas's figure; a
  // 64-bit value therefore takes R2:R3 at the earliest, and R0 is left to a 32-bit one.
  RegisterMask reserved{};
  reserved[0] |= std::uint64_t{1} << kStackPointer;
  std::vector<RegisterMask> busy(pointCount, reserved);
  std::uint32_t top = kStackPointer + 1;
  std::uint32_t spilled = 0;
  std::uint32_t limit = std::min<std::uint32_t>(budget, kMostRegistersPerThread);
  // Vector groups: the first group a value belongs to places it, with its companions, at
  // consecutive registers from a slot aligned to the group's size.
  constexpr std::uint32_t kNone = UINT32_MAX;
  std::vector<std::uint32_t> groupOf(lowered.values.size(), kNone);
  for (std::uint32_t g = 0; g < lowered.vectorGroups.size(); ++g) {
    const std::vector<std::uint32_t>& group = lowered.vectorGroups[g];
    bool usable = std::all_of(group.begin(), group.end(), [&](std::uint32_t v) {
      return v != kNone && !lowered.values[v].predicate && lowered.values[v].units == lowered.values[group[0]].units &&
             !lowered.values[v].rematerializable && groupOf[v] == kNone;
    });
    bool distinct = true;
    for (std::size_t a = 0; a < group.size() && distinct; ++a) {
      for (std::size_t b = a + 1; b < group.size(); ++b) distinct = distinct && group[a] != group[b];
    }
    if (!usable || !distinct) continue;
    for (std::uint32_t v : group) groupOf[v] = g;
  }
  std::vector<bool> placed(lowered.values.size(), false);
  std::vector<std::uint32_t> slotOf(lowered.values.size(), kNone);
  // The instructions that read each value, flat: readers[readerStart[v] .. readerStart[v + 1]).
  std::vector<std::uint32_t> readerStart(lowered.values.size() + 1, 0), readers;
  for (const LoweredInstruction& instruction : lowered.instructions) {
    for (std::uint32_t u : instruction.uses) ++readerStart[u + 1];
  }
  for (std::size_t v = 0; v < lowered.values.size(); ++v) readerStart[v + 1] += readerStart[v];
  readers.resize(readerStart.back());
  {
    std::vector<std::uint32_t> fill(readerStart.begin(), readerStart.end() - 1);
    for (std::uint32_t i = 0; i < lowered.instructions.size(); ++i) {
      for (std::uint32_t u : lowered.instructions[i].uses) readers[fill[u]++] = i;
    }
  }
  std::vector<RegisterMask> held(heldPoints.empty() ? 0 : pointCount, RegisterMask{});
  auto placeGroup = [&](std::uint32_t g) {
    const std::vector<std::uint32_t>& group = lowered.vectorGroups[g];
    std::uint32_t elementUnits = lowered.values[group[0]].units;
    std::uint32_t span = std::bit_ceil(static_cast<std::uint32_t>(group.size()) * elementUnits);
    std::vector<RegisterMask> taken(group.size(), RegisterMask{});
    for (std::size_t k = 0; k < group.size(); ++k) {
      for (std::uint32_t point : pointsOf.of(group[k])) {
        for (std::size_t w = 0; w < 4; ++w) taken[k][w] |= busy[point][w];
      }
    }
    for (std::uint32_t slot = 0; slot + span <= limit; slot += span) {
      bool free = true;
      for (std::size_t k = 0; k < group.size() && free; ++k) {
        for (std::uint32_t u = slot + static_cast<std::uint32_t>(k) * elementUnits;
             u < slot + static_cast<std::uint32_t>(k + 1) * elementUnits; ++u) {
          if ((taken[k][u / 64] >> (u % 64)) & 1) free = false;
        }
      }
      if (!free) continue;
      for (std::size_t k = 0; k < group.size(); ++k) {
        std::uint32_t first = slot + static_cast<std::uint32_t>(k) * elementUnits;
        for (std::uint32_t point : pointsOf.of(group[k])) {
          for (std::uint32_t u = first; u < first + elementUnits; ++u)
            busy[point][u / 64] |= std::uint64_t{1} << (u % 64);
        }
        if (!pointsOf.of(group[k]).empty()) top = std::max(top, first + elementUnits);
        placed[group[k]] = true;
        slotOf[group[k]] = first;
      }
      return true;
    }
    return false;
  };
  for (std::uint32_t v : order) {
    if (placed[v]) continue;
    if (groupOf[v] != kNone && placeGroup(groupOf[v])) continue;
    RegisterMask taken{};
    for (std::uint32_t point : pointsOf.of(v)) {
      for (std::size_t w = 0; w < 4; ++w) taken[w] |= busy[point][w];
    }
    RegisterMask avoided{};  // Registers held by a memory instruction's late read.
    if (!held.empty()) {
      for (std::uint32_t point : pointsOf.of(v)) {
        for (std::size_t w = 0; w < 4; ++w) avoided[w] |= held[point][w];
      }
    }
    std::uint32_t units = lowered.values[v].units;
    auto anyIn = [&](const RegisterMask& mask, std::uint32_t slot) {
      for (std::uint32_t u = slot; u < slot + units; ++u) {
        if ((mask[u / 64] >> (u % 64)) & 1) return true;
      }
      return false;
    };
    // Register banks (register number mod 2): a 32-bit value is preferably placed in the bank
    // that fewer of the registers it is read with use, so one instruction's operands come
    // from both banks (87% of the two-register ALU instructions in the corpus's SASS do).
    std::optional<std::uint32_t> preferredBank;
    if (units == 1) {
      int sharing[2] = {0, 0};
      for (std::uint32_t r = readerStart[v]; r < readerStart[v + 1]; ++r) {
        const LoweredInstruction& instruction = lowered.instructions[readers[r]];
        for (std::size_t k = 0; k < instruction.uses.size(); ++k) {
          std::uint32_t u = instruction.uses[k];
          if (u == v || slotOf[u] == kNone || lowered.values[u].units != 1) continue;
          if (lowered.values[u].rematerializable && !instruction.materializes(k)) continue;
          ++sharing[slotOf[u] % 2];
        }
      }
      if (sharing[0] != sharing[1]) preferredBank = sharing[0] < sharing[1] ? 0u : 1u;
    }
    // The lowest free slot that honours both preferences, then the one that honours the hold,
    // then the bank, then any; a preference may take a register past those already used only
    // while the function stays under the full-occupancy count (ptxas does not trade occupancy
    // for them).
    std::uint32_t growthLimit = std::max(top, comfortable);
    std::optional<std::uint32_t> chosen[4];
    for (std::uint32_t candidate = 0; candidate + units <= limit; candidate += units) {
      if (anyIn(taken, candidate)) continue;
      if (!chosen[3]) chosen[3] = candidate;
      if (candidate + units > growthLimit) break;
      bool holdOk = !anyIn(avoided, candidate);
      bool bankOk = !preferredBank || candidate % 2 == *preferredBank;
      int rank = holdOk && bankOk ? 0 : holdOk ? 1 : bankOk ? 2 : 3;
      if (!chosen[rank]) chosen[rank] = candidate;
      if (rank == 0) break;
    }
    std::optional<std::uint32_t> slot;
    for (const std::optional<std::uint32_t>& c : chosen) {
      if (c) {
        slot = c;
        break;
      }
    }
    if (!slot) {
      spilled += units;
      continue;
    }
    for (std::uint32_t point : pointsOf.of(v)) {
      for (std::uint32_t u = *slot; u < *slot + units; ++u) busy[point][u / 64] |= std::uint64_t{1} << (u % 64);
    }
    for (std::uint32_t point : heldPoints.of(v)) {
      for (std::uint32_t u = *slot; u < *slot + units; ++u) held[point][u / 64] |= std::uint64_t{1} << (u % 64);
    }
    top = std::max(top, *slot + units);
    slotOf[v] = *slot;
  }
  return {top, spilled};
}

}  // namespace ptx::registers

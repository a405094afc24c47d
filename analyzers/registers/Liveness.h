// Liveness: the fourth stage of the register estimate (RegisterPressure.h). Backward dataflow
// over the if-converted regions, to a fixpoint through loops; a write under a guard does not
// end the old value's life. Rematerialization then frees the results of one-cycle integer
// instructions whose operand stays live wherever they are read.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "flow/FunctionFlow.h"
#include "registers/Lowering.h"

namespace ptx::registers {

// A fixed-size set of value ids.
class ValueSet {
 public:
  explicit ValueSet(std::size_t size = 0) : words_((size + 63) / 64, 0) {}
  void insert(std::uint32_t v) { words_[v / 64] |= std::uint64_t{1} << (v % 64); }
  void erase(std::uint32_t v) { words_[v / 64] &= ~(std::uint64_t{1} << (v % 64)); }
  bool contains(std::uint32_t v) const { return (words_[v / 64] >> (v % 64)) & 1; }
  // this |= other; returns whether anything was added.
  bool unite(const ValueSet& other) {
    bool changed = false;
    for (std::size_t w = 0; w < words_.size(); ++w) {
      std::uint64_t merged = words_[w] | other.words_[w];
      changed = changed || merged != words_[w];
      words_[w] = merged;
    }
    return changed;
  }
  template <typename F>
  void forEach(F&& f) const {
    for (std::size_t w = 0; w < words_.size(); ++w) {
      for (std::uint64_t bits = words_[w]; bits != 0; bits &= bits - 1) {
        f(static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits))));
      }
    }
  }
  bool operator==(const ValueSet&) const = default;

 private:
  std::vector<std::uint64_t> words_;
};

// Regions on a cycle of the region graph (Tarjan's strongly connected components). Not
// flow/ControlFlow.h's natural loops: the regions are the estimate's own (if-conversion merges
// blocks), and a cycle that is not a natural loop (an irreducible one) keeps values alive all
// the same, while a natural loop's body may take in blocks the entry does not reach; with
// natural loops the loop marks of 6 corpus files' register plots changed.
std::vector<bool> blocksInLoops(const std::vector<flow::BasicBlock>& blocks);

// Live-in and live-out sets of each region, and walks of a region's instructions backward in
// the order they issue (source order until setOrder gives the schedule's).
class RegionLiveness {
 public:
  // `first`: the function's first instruction (the lowered instructions are function-local).
  RegionLiveness(const LoweredFunction& lowered, const std::vector<flow::BasicBlock>& regions, std::uint32_t first);

  // Solves the sets to a fixpoint (again after the lowering changed).
  void solve();
  // The issue order: function-local instruction indices, region by region (Schedule.h). The
  // live sets at region boundaries do not depend on it.
  void setOrder(std::vector<std::uint32_t> order) { order_ = std::move(order); }
  const std::vector<std::uint32_t>& order() const { return order_; }

  const ValueSet& liveIn(std::uint32_t region) const { return liveIn_[region]; }
  const ValueSet& liveOut(std::uint32_t region) const { return liveOut_[region]; }

  // Walks region `b` backward from `live` (what lives after it), calling at(instruction,
  // liveAfter) before each instruction's transfer; returns what lives before the region.
  template <typename F>
  ValueSet walk(std::uint32_t b, ValueSet live, F&& at) const {
    for (std::uint32_t position = regions_[b].end; position-- > regions_[b].first;) {
      std::uint32_t i = first_ + order_[position - first_];
      const LoweredInstruction& instruction = lowered_.instructions[i - first_];
      at(i, live);
      if (!instruction.guardedDefs) {
        for (std::uint32_t d : instruction.defs) live.erase(d);
      }
      for (std::uint32_t u : instruction.uses) {
        if (!lowered_.values[u].rematerializable) live.insert(u);
      }
    }
    return live;
  }

 private:
  const LoweredFunction& lowered_;
  const std::vector<flow::BasicBlock>& regions_;
  std::uint32_t first_;
  std::vector<std::uint32_t> order_;
  std::vector<ValueSet> liveIn_, liveOut_;
};

// Rematerialization: the result of a one-cycle integer instruction (add, shift, logic op)
// whose single register operand is live wherever the result is read holds no register of its
// own; ptxas recomputes it at the use or folds it into the addressing mode (the SASS of nvcc's
// bitonic sort reads tid * 4 and tid * 8 as [R5.X4], [R5.X8]). Not into loops, where the
// instruction would repeat on every iteration. Marks such values rematerializable and their
// reads materialized, and solves the liveness again when any is.
void rematerialize(LoweredFunction& lowered, const std::vector<flow::BasicBlock>& regions,
                   const std::vector<bool>& loopRegions, std::uint32_t first, RegionLiveness& liveness);

}  // namespace ptx::registers

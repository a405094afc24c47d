// Liveness: live sets over the regions and rematerialization (see Liveness.h).
#include "registers/Liveness.h"

#include <algorithm>

namespace ptx::registers {

std::vector<bool> blocksInLoops(const std::vector<flow::BasicBlock>& blocks) {
  std::size_t n = blocks.size();
  std::vector<int> index(n, -1), low(n, 0);
  std::vector<bool> onStack(n, false), inLoop(n, false);
  std::vector<std::uint32_t> stack;
  int counter = 0;
  // Iterative DFS: (block, next successor position).
  std::vector<std::pair<std::uint32_t, std::size_t>> dfs;
  for (std::uint32_t root = 0; root < n; ++root) {
    if (index[root] >= 0) continue;
    dfs.push_back({root, 0});
    index[root] = low[root] = counter++;
    stack.push_back(root);
    onStack[root] = true;
    while (!dfs.empty()) {
      auto& [block, next] = dfs.back();
      if (next < blocks[block].successors.size()) {
        std::uint32_t successor = blocks[block].successors[next++];
        if (successor == block) inLoop[block] = true;
        if (index[successor] < 0) {
          index[successor] = low[successor] = counter++;
          stack.push_back(successor);
          onStack[successor] = true;
          dfs.push_back({successor, 0});
        } else if (onStack[successor]) {
          low[block] = std::min(low[block], index[successor]);
        }
        continue;
      }
      std::uint32_t done = block;
      dfs.pop_back();
      if (!dfs.empty()) low[dfs.back().first] = std::min(low[dfs.back().first], low[done]);
      if (low[done] == index[done]) {
        std::vector<std::uint32_t> component;
        std::uint32_t member;
        do {
          member = stack.back();
          stack.pop_back();
          onStack[member] = false;
          component.push_back(member);
        } while (member != done);
        if (component.size() > 1) {
          for (std::uint32_t b : component) inLoop[b] = true;
        }
      }
    }
  }
  return inLoop;
}

RegionLiveness::RegionLiveness(const LoweredFunction& lowered, const std::vector<flow::BasicBlock>& regions,
                               std::uint32_t first)
    : lowered_(lowered),
      regions_(regions),
      first_(first),
      order_(lowered.instructions.size()),
      liveIn_(regions.size(), ValueSet(lowered.values.size())),
      liveOut_(regions.size(), ValueSet(lowered.values.size())) {
  for (std::uint32_t i = 0; i < order_.size(); ++i) order_[i] = i;
}

void RegionLiveness::solve() {
  std::size_t valueCount = lowered_.values.size();
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t b = static_cast<std::uint32_t>(regions_.size()); b-- > 0;) {
      ValueSet out(valueCount);
      for (std::uint32_t s : regions_[b].successors) out.unite(liveIn_[s]);
      liveOut_[b] = out;
      ValueSet in = walk(b, out, [](std::uint32_t, const ValueSet&) {});
      if (!(in == liveIn_[b])) {
        liveIn_[b] = in;
        changed = true;
      }
    }
  }
}

void rematerialize(LoweredFunction& lowered, const std::vector<flow::BasicBlock>& regions,
                   const std::vector<bool>& loopRegions, std::uint32_t first, RegionLiveness& liveness) {
  constexpr std::uint32_t kNoOperand = UINT32_MAX;
  std::size_t valueCount = lowered.values.size();
  std::vector<std::uint32_t> operandOf(valueCount, kNoOperand);
  bool any = false;
  for (std::uint32_t v = 0; v < valueCount; ++v) {
    operandOf[v] = lowered.values[v].recomputableFrom;
    any = any || operandOf[v] != kNoOperand;
  }
  if (!any) return;
  std::vector<bool> definedInLoop(valueCount, false);
  for (std::uint32_t b = 0; b < regions.size(); ++b) {
    for (std::uint32_t i = regions[b].first; i < regions[b].end; ++i) {
      for (std::uint32_t d : lowered.instructions[i - first].defs) definedInLoop[d] = loopRegions[b];
    }
  }
  // The operand must be live wherever the result is read.
  for (std::uint32_t b = 0; b < regions.size(); ++b) {
    liveness.walk(b, liveness.liveOut(b), [&](std::uint32_t i, const ValueSet& liveAfter) {
      const LoweredInstruction& instruction = lowered.instructions[i - first];
      for (std::uint32_t u : instruction.uses) {
        std::uint32_t o = operandOf[u];
        if (o == kNoOperand) continue;
        bool readHere = std::find(instruction.uses.begin(), instruction.uses.end(), o) != instruction.uses.end();
        if ((loopRegions[b] && !definedInLoop[u]) || (!readHere && !liveAfter.contains(o))) operandOf[u] = kNoOperand;
      }
    });
  }
  bool recomputed = false;
  for (std::uint32_t v = 0; v < valueCount; ++v) {
    if (operandOf[v] == kNoOperand) continue;
    lowered.values[v].rematerializable = true;
    recomputed = true;
  }
  for (LoweredInstruction& instruction : lowered.instructions) {
    for (std::size_t k = 0; k < instruction.uses.size() && k < 64; ++k) {
      if (operandOf[instruction.uses[k]] != kNoOperand) instruction.materializedUses |= std::uint64_t{1} << k;
    }
  }
  if (recomputed) liveness.solve();
}

}  // namespace ptx::registers

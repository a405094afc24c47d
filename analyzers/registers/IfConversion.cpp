// IfConversion: short forward branches merged into predicated regions (see IfConversion.h).
#include "registers/IfConversion.h"

#include <algorithm>
#include <optional>

#include "registers/Constants.h"
#include "registers/InstructionClasses.h"

namespace ptx::registers {

// ptxas turns short forward branches into predicated code: `@p bra L` over a few
// instructions (an if, or an if/else whose then-part ends in `bra.uni` over the else-part)
// becomes one straight run, so the skipped instructions are scheduled with the code around
// them — a load under the condition issues together with the loads before and after it
// (SASS: `@!P0 LDG R6, [R2]` next to `@!P1 LDG R5, [R4+0x800]`). This pass merges such runs
// into one block for the register analysis: the skipped instructions read the branch's
// predicate (so they stay below its computation), the branches inside the run do nothing,
// and the run's successors are the join's. Their writes still end the old values' lives (a
// value written on one side only is, in compiler output, read on that side only, and
// keeping the old value alive would carry it back to the function's entry) — except an
// else-part's write of a register the then-part wrote, which must keep the then-value. A run stays short (its skipped
// part at most kIfConversionLimit instructions) and free of calls, barriers, returns and
// loops, as in the code ptxas predicates.
//
// The limits (kIfConversionLimit, kLargestConvertedRun: the whole run stays small too, as
// ptxas if-converts locally) are in Constants.h.
std::vector<flow::BasicBlock> ifConvert(const Module& module, const flow::FunctionFlow& flow, LoweredFunction& lowered) {
  const std::vector<flow::BasicBlock>& original = flow.blocks();
  std::uint32_t first = module.functions[flow.functionIndex()].firstInstruction;
  std::size_t n = original.size();
  // Blocks by first instruction (FunctionFlow numbers them in source order, but do not rely
  // on it): the index of the block starting at an instruction.
  std::vector<std::uint32_t> order(n);
  for (std::uint32_t b = 0; b < n; ++b) order[b] = b;
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return original[a].first < original[b].first; });
  for (std::size_t k = 0; k + 1 < n; ++k) {
    if (original[order[k]].end != original[order[k + 1]].first) return original;  // Not contiguous: leave it.
  }
  auto isBranch = [&](std::uint32_t i) { return module.factsOf(i).is(Family::Bra); };
  auto predicatable = [&](const flow::BasicBlock& block) {
    for (std::uint32_t i = block.first; i < block.end; ++i) {
      const InstructionSite& site = module.instructions[i];
      if (site.isCall || site.inDamagedCode || classOf(module.factsOf(site)).has(kNotPredicated)) return false;
      if (site.isGuarded() && !isBranch(i)) return false;  // Already predicated: keep it simple.
    }
    return true;
  };
  // The block a branch at instruction i jumps to (its successor that is not the next block).
  auto targetOf = [&](std::uint32_t position, std::uint32_t block) -> std::optional<std::uint32_t> {
    for (std::uint32_t s : original[block].successors) {
      if (position + 1 >= n || s != order[position + 1]) return s;
    }
    return std::nullopt;
  };
  std::vector<std::uint32_t> positionOf(n);
  for (std::uint32_t k = 0; k < n; ++k) positionOf[order[k]] = k;
  std::vector<std::uint32_t> regionOf(n);
  std::vector<flow::BasicBlock> regions;
  for (std::uint32_t k = 0; k < n;) {
    std::uint32_t start = k;
    std::uint32_t end = k;  // The region covers positions [start, end].
    for (bool extended = true; extended;) {
      extended = false;
      const flow::BasicBlock& last = original[order[end]];
      if (last.end == last.first) break;
      std::uint32_t branch = last.end - 1;
      const InstructionSite& site = module.instructions[branch];
      if (!isBranch(branch) || !site.isGuarded()) break;
      auto target = targetOf(end, order[end]);
      if (!target || positionOf[*target] <= end + 1) break;
      std::uint32_t join = positionOf[*target];
      // An if/else: the then-part ends with an unconditional forward branch over the else-part.
      const flow::BasicBlock& thenEnd = original[order[join - 1]];
      if (thenEnd.end > thenEnd.first && isBranch(thenEnd.end - 1) &&
          !module.instructions[thenEnd.end - 1].isGuarded()) {
        auto elseJoin = targetOf(join - 1, order[join - 1]);
        if (elseJoin && positionOf[*elseJoin] > join) join = positionOf[*elseJoin];
      }
      if (join >= n) break;
      if (original[order[join]].end - original[order[start]].first > kLargestConvertedRun) break;
      // The skipped blocks: small, predicatable, entered only from inside the region.
      std::uint32_t skipped = 0;
      bool ok = true;
      for (std::uint32_t p = end + 1; p < join && ok; ++p) {
        const flow::BasicBlock& block = original[order[p]];
        skipped += block.end - block.first;
        ok = predicatable(block) && skipped <= kIfConversionLimit;
        for (std::uint32_t predecessor : block.predecessors) {
          ok = ok && positionOf[predecessor] >= start && positionOf[predecessor] < p;
        }
      }
      for (std::uint32_t predecessor : original[order[join]].predecessors) {
        ok = ok && positionOf[predecessor] >= start && positionOf[predecessor] < join;
      }
      if (!ok) break;
      // Predicate the skipped instructions on the branch's condition.
      // The branch's lowered uses end with its guard predicate.
      LoweredInstruction& branchInstruction = lowered.instructions[branch - first];
      std::optional<std::uint32_t> guard;
      if (!branchInstruction.uses.empty()) guard = branchInstruction.uses.back();
      branchInstruction.predicatedAway = true;
      std::vector<std::uint32_t> writtenInRun;
      for (std::uint32_t p = end + 1; p < join; ++p) {
        const flow::BasicBlock& block = original[order[p]];
        for (std::uint32_t i = block.first; i < block.end; ++i) {
          LoweredInstruction& instruction = lowered.instructions[i - first];
          if (isBranch(i)) instruction.predicatedAway = true;
          if (guard) instruction.addUse(*guard, true);
          // The else-part's write of a register the then-part wrote (a phi): the other
          // side's value must survive it.
          for (std::uint32_t d : instruction.defs) {
            if (std::find(writtenInRun.begin(), writtenInRun.end(), d) != writtenInRun.end()) {
              instruction.guardedDefs = true;
            }
          }
          writtenInRun.insert(writtenInRun.end(), instruction.defs.begin(), instruction.defs.end());
        }
      }
      end = join;
      extended = true;
    }
    flow::BasicBlock region;
    region.first = original[order[start]].first;
    region.end = original[order[end]].end;
    region.successors = original[order[end]].successors;  // Renumbered below.
    for (std::uint32_t p = start; p <= end; ++p) regionOf[order[p]] = static_cast<std::uint32_t>(regions.size());
    regions.push_back(std::move(region));
    k = end + 1;
  }
  for (flow::BasicBlock& region : regions) {
    for (std::uint32_t& s : region.successors) s = regionOf[s];
    std::sort(region.successors.begin(), region.successors.end());
    region.successors.erase(std::unique(region.successors.begin(), region.successors.end()), region.successors.end());
  }
  for (std::uint32_t r = 0; r < regions.size(); ++r) {
    for (std::uint32_t s : regions[r].successors) regions[s].predecessors.push_back(r);
  }
  return regions;
}

}  // namespace ptx::registers

// SNC001 divergent-barrier
//
// What it does: finds a CTA-wide barrier (`bar.sync`, `barrier.sync`, `bar.red`,
// `barrier.red` without a thread count) that only some threads of the CTA reach: it lies
// between a branch whose condition depends on the thread and the point where the branch's
// paths meet again, and two threads of a small block (128 x 8 x 2) are shown to take that
// branch different ways. The idiom of threads leaving early (`if (i >= n) return;` before
// the barrier) is not reported: threads that skip the barrier only to exit are not waited
// for.
//
// Why is this bad: a barrier without a thread count waits for every thread of the CTA; the
// CUDA programming guide allows `__syncthreads()` in conditional code only when the condition
// is the same across the block. When it is not, the waiting threads hang or are released by
// the skipping threads' next barrier, which synchronizes the wrong code. compute-sanitizer's
// synccheck did not flag such a barrier on an H200 (docs/cuda-facts.md).
//
// Example:
//     setp.lt.u32 %p1, %r1, 16;       // %r1 = %tid.x
//     @!%p1 bra SKIP;
//     st.shared.u32 [%r2], %r3;
//     bar.sync 0;                     // only threads 0..15 arrive
//   SKIP:
//     bar.sync 0;
//
// Use instead: move the barrier out of the condition, so every thread reaches it.
//
// References: PTX ISA bar.sync/barrier.sync (all threads of the CTA participate unless a
// thread count is given), §8.9.4; CUDA C++ Programming Guide, __syncthreads.
#include <string>

#include "RuleContext.h"
#include "flow/ThreadModel.h"

namespace ptx {
namespace {

bool isCtaBarrier(const RuleContext& context, const InstructionSite& site) {
  std::string_view opcode = context.textOf(site.opcode);
  if (opcode != "bar" && opcode != "barrier") return false;
  bool waits = false;
  for (std::uint32_t m = site.firstModifier; m < site.firstModifier + site.modifierCount; ++m) {
    std::string_view modifier = context.textOf(context.module.modifiers[m]);
    if (modifier == ".warp" || modifier == ".cluster" || modifier == ".arrive") return false;
    if (modifier == ".sync" || modifier == ".red") waits = true;
  }
  if (!waits) return false;
  // With a thread count (`bar.sync 1, 64`) only that many threads take part: named barriers
  // for warp-specialized code, divergent on purpose.
  std::uint32_t operands = site.operandCount;
  bool reduction = false;
  for (std::uint32_t m = site.firstModifier; m < site.firstModifier + site.modifierCount; ++m) {
    if (context.textOf(context.module.modifiers[m]) == ".red") reduction = true;
  }
  return reduction ? operands <= 3 : operands <= 1;
}

}  // namespace

void checkDivergentBarrier(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (!hasAnalyzableBody(function)) continue;
    std::vector<std::uint32_t> barriers;
    for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
      const InstructionSite& site = module.instructions[i];
      if (!site.inDamagedCode && isCtaBarrier(context, site)) barriers.push_back(i);
    }
    if (barriers.empty()) continue;
    flow::FunctionFlow& flow = context.flows.flowOfFunction(f);
    flow::ThreadModel& model = context.flows.threadsOfFunction(f);
    const std::vector<flow::BasicBlock>& blocks = flow.blocks();
    // Forward reachability from a block, not through `avoid`.
    auto reachable = [&](std::uint32_t start, std::uint32_t avoid) {
      std::vector<bool> seen(blocks.size(), false);
      std::vector<std::uint32_t> pending{start};
      while (!pending.empty()) {
        std::uint32_t b = pending.back();
        pending.pop_back();
        if (b == avoid || seen[b]) continue;
        seen[b] = true;
        for (std::uint32_t s : blocks[b].successors) pending.push_back(s);
      }
      return seen;
    };
    for (std::uint32_t barrier : barriers) {
      std::uint32_t block = flow.blockOf(barrier);
      const InstructionSite& site = module.instructions[barrier];
      // A guard that depends on the thread splits the CTA at the barrier itself.
      std::optional<std::uint32_t> culprit;
      if (auto guard = flow.guardRegisterOf(site)) {
        if (model.divergenceOf(barrier, *guard) & flow::kVariesInCta) culprit = barrier;
      }
      for (std::uint32_t b = 0; b < blocks.size() && !culprit; ++b) {
        if ((model.branchDivergence(b) & flow::kVariesInCta) == 0 || blocks[b].successors.size() < 2) continue;
        if (!model.conditionSplitsThreads(b)) continue;
        std::uint32_t join = model.immediatePostDominator(b);
        if (join == block) continue;
        // Which sides of the branch reach the barrier before the paths meet.
        std::vector<std::vector<bool>> sides;
        bool anyReaches = false, allReach = true;
        for (std::uint32_t s : blocks[b].successors) {
          sides.push_back(reachable(s, join < blocks.size() ? join : UINT32_MAX));
          bool reaches = sides.back()[block];
          anyReaches = anyReaches || reaches;
          allReach = allReach && reaches;
        }
        if (!anyReaches) continue;
        if (allReach) {
          // Both sides reach it: a loop whose trip count depends on the thread, when the
          // branch is inside that loop with the barrier.
          std::vector<bool> fromBarrier = reachable(block, UINT32_MAX);
          if (fromBarrier[b]) culprit = blocks[b].end - 1;
          continue;
        }
        // One side skips the barrier: fine only if the threads taking it do nothing but exit
        // (`if (i >= n) return;`), since a barrier does not wait for exited threads.
        bool skippersWork = false;
        for (std::size_t k = 0; k < sides.size(); ++k) {
          if (sides[k][block]) continue;
          std::vector<bool> onward = reachable(blocks[b].successors[k], b);
          for (std::uint32_t c = 0; c < blocks.size() && !skippersWork; ++c) {
            if (!onward[c]) continue;
            for (std::uint32_t i = blocks[c].first; i < blocks[c].end; ++i) {
              std::string_view opcode = context.textOf(module.instructions[i].opcode);
              if (opcode != "bra" && opcode != "ret" && opcode != "exit") skippersWork = true;
            }
          }
        }
        if (skippersWork) culprit = blocks[b].end - 1;
      }
      if (!culprit) continue;
      const InstructionSite& branch = module.instructions[*culprit];
      std::string where =
          *culprit == barrier
              ? "its guard depends on the thread"
              : "the branch here depends on the thread, and threads that take the other way do not reach it";
      context.warn("SNC001", Category::Sync, site.statement,
                   concat({"barrier in divergent code: only some threads of the CTA may reach this '",
                           context.textOf(site.opcode), "': ", where}));
      context.out.back().related.push_back({branch.statement, "the thread-dependent branch"});
    }
  }
}

}  // namespace ptx

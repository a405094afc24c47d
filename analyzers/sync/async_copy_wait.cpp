// SNC006 async-copy-read-before-wait
//
// What it does: follows the asynchronous copies `cp.async.ca/.cg.shared.global` along every
// path of a function — each joins the open group, `cp.async.commit_group` closes it,
// `cp.async.wait_group N` waits until at most N groups are pending, `cp.async.wait_all` (and a
// wait on an mbarrier) waits for all — and reports a load from shared memory that reads the
// bytes a copy still pending on every path writes: the same thread's destination, or another
// thread's (a pair of concrete threads of the block whose bytes meet under two seeds). A
// barrier does not complete copies: only the copying thread's wait does, so reading another
// thread's copy needs that wait and then a barrier.
//
// Why is this bad: cp.async only starts the copy; the destination holds its new bytes once a
// wait covers the copy's group. A read before that sees the old contents or a mix of both.
// `cp.async.wait_group 1` after two commits leaves the newer group in flight: reading its
// buffer is the classic off-by-one of a double-buffered pipeline. `__syncthreads()` alone
// after the copies does not help: it orders the threads' instructions, not their copies.
//
// Example:
//     cp.async.ca.shared.global [%r1], [%rd1], 4;
//     cp.async.commit_group;
//     ld.shared.u32 %r2, [%r1];
//
// Use instead:
//     cp.async.ca.shared.global [%r1], [%rd1], 4;
//     cp.async.commit_group;
//     cp.async.wait_group 0;
//     ld.shared.u32 %r2, [%r1];
//
// References: PTX ISA cp.async, cp.async.commit_group, cp.async.wait_group/wait_all;
// §8.9.1.1 (asynchronous operations are not ordered with later instructions).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "RuleContext.h"
#include "flow/ThreadModel.h"
#include "sync/BlockStates.h"

namespace ptx {
namespace {

// The cp.async instructions in flight.
using Pending = sync::AsyncGroups<std::uint32_t>;

enum class AsyncStep { None, Copy, Commit, WaitGroup, WaitAll };

AsyncStep stepOf(const RuleContext& context, const InstructionSite& site) {
  const InstructionFacts& facts = context.module.factsOf(site);
  // A wait on an mbarrier completes the copies that arrive on it, and the thread's others
  // are not followed past it.
  if (facts.does(kMbarrierWait)) return AsyncStep::WaitAll;
  // The groups of cp.async; the bulk copies (cp.async.bulk) have groups of their own.
  if (!facts.is(Family::Cp) || facts.has(Modifier::Bulk)) return AsyncStep::None;
  if (facts.does(kCommitsGroup)) return AsyncStep::Commit;
  if (facts.does(kWaitsForGroup)) return facts.has(Modifier::WaitAll) ? AsyncStep::WaitAll : AsyncStep::WaitGroup;
  if (facts.does(kCompletesInAsyncGroup) && facts.space == StateSpace::Shared && site.operandCount >= 3) {
    return AsyncStep::Copy;
  }
  return AsyncStep::None;
}

}  // namespace

void checkAsyncCopyReadBeforeWait(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (!hasAnalyzableBody(function)) continue;
    if (!anyInstructionOf(module, function,
                          [&](const InstructionSite& site) { return stepOf(context, site) == AsyncStep::Copy; })) {
      continue;
    }
    flow::FunctionFlow& flow = context.flows.flowOfFunction(f);
    flow::ThreadModel& model = context.flows.threadsOfFunction(f);
    constexpr std::uint64_t kSeeds[] = {0x5a5a, 0xa5a5};
    auto apply = [&](std::uint32_t i, Pending& state) {
      const InstructionSite& site = module.instructions[i];
      switch (stepOf(context, site)) {
        case AsyncStep::Copy:
          state.open.push_back(i);
          break;
        case AsyncStep::Commit:
          state.commit();
          break;
        case AsyncStep::WaitGroup:
          state.waitKeeping(flow.valueOf(i, module.operands[site.firstOperand]).constantValue());
          break;
        case AsyncStep::WaitAll:
          state = Pending{};
          break;
        case AsyncStep::None:
          if (site.isCall) state = Pending{};  // The callee may wait.
          break;
      }
    };
    // A pair of threads of the CTA (the first 64 along x, or the declared shape) where the
    // first executes the load at `load` and the second the copy at `copy`, and the bytes meet
    // under both seeds; the two threads described.
    const flow::LaunchShape& launch = model.launch();
    auto otherThreadOverlap = [&](std::uint32_t load, const InstructionOperand& address, std::uint64_t size,
                                  std::uint32_t copy, std::uint64_t copySize)
        -> std::optional<std::pair<std::string, std::string>> {
      if (!model.readsThreadCoordinates()) return std::nullopt;
      const InstructionOperand& destination = module.operands[module.instructions[copy].firstOperand];
      std::uint32_t xs = std::min<std::uint32_t>(launch.ntid[0], 64);
      std::vector<std::optional<std::uint64_t>> reads(xs), writes(xs);
      std::optional<std::pair<std::uint32_t, std::uint32_t>> pair;
      for (std::uint64_t seed : kSeeds) {
        for (std::uint32_t t = 0; t < xs; ++t) {
          flow::ThreadCoordinates thread;
          thread.tid = {t, 0, 0};
          reads[t] = writes[t] = std::nullopt;
          auto loads = model.executes(load, thread, seed, flow::kVariesInCta);
          auto copies = model.executes(copy, thread, seed, flow::kVariesInCta);
          if (!loads || !copies) return std::nullopt;  // Unknown: no proof.
          if (*loads) reads[t] = model.evaluateAddress(load, address, thread, seed);
          if (*copies) writes[t] = model.evaluateAddress(copy, destination, thread, seed);
        }
        auto meet = [&](std::uint32_t p, std::uint32_t q) {
          return p != q && reads[p] && writes[q] && *reads[p] < *writes[q] + copySize && *writes[q] < *reads[p] + size;
        };
        if (pair) {
          if (!meet(pair->first, pair->second)) return std::nullopt;
          continue;
        }
        for (std::uint32_t p = 0; p < xs && !pair; ++p) {
          for (std::uint32_t q = 0; q < xs && !pair; ++q) {
            if (meet(p, q)) pair = {p, q};
          }
        }
        if (!pair) return std::nullopt;
      }
      return std::pair{concat({"thread ", std::to_string(pair->first)}),
                       concat({"thread ", std::to_string(pair->second)})};
    };
    auto visit = [&](std::uint32_t i, const Pending& state) {
      const InstructionSite& site = module.instructions[i];
      const InstructionFacts& facts = module.factsOf(site);
      if (state.empty() || !facts.is(Family::Ld) || site.operandCount < 2) return;
      auto size = facts.accessBytes();
      if (facts.space != StateSpace::Shared || !size) return;
      const InstructionOperand& address = module.operands[site.firstOperand + 1];
      for (std::uint32_t copy : state.pending()) {
        const InstructionSite& copySite = module.instructions[copy];
        auto copySize = flow.valueOf(copy, module.operands[copySite.firstOperand + 2]).constantValue();
        if (!copySize) continue;
        // The same thread reads the bytes its own copy writes, for every thread tried that
        // executes both, under both seeds.
        bool overlaps = true, anyThread = false;
        for (std::uint64_t seed : kSeeds) {
          for (std::uint32_t t = 0; t < 16 && overlaps; ++t) {
            flow::ThreadCoordinates thread;
            thread.tid = {t, 0, 0};
            auto readAt = model.evaluateAddress(i, address, thread, seed);
            auto writeAt = model.evaluateAddress(copy, module.operands[copySite.firstOperand], thread, seed);
            if (!readAt || !writeAt) {
              overlaps = false;
              break;
            }
            anyThread = true;
            overlaps = *readAt < *writeAt + *copySize && *writeAt < *readAt + *size;
          }
        }
        std::string other;
        if (!overlaps || !anyThread) {
          // Another thread's copy: the load of thread p meets the bytes the copy of thread q
          // writes, under both seeds. A barrier does not wait for the copies of the threads
          // it synchronizes, so only a wait (before that barrier, in the copying thread)
          // completes them; on every path here the copy is still pending.
          auto witness = otherThreadOverlap(i, address, *size, copy, *copySize);
          if (!witness) continue;
          other = concat({": ", witness->first, " reads what the copy of ", witness->second,
                          " writes, and a barrier does not wait for another thread's cp.async"});
        }
        context.report("SNC006", site.statement,
                     concat({"this load reads shared memory that a cp.async still in flight writes: no "
                             "cp.async.wait_group or wait_all covering its group comes first",
                             other}));
        context.out.back().related.push_back({copySite.statement, "the asynchronous copy"});
        return;
      }
    };
    sync::forPathStates<Pending>(sync::Paths::Every, flow.blocks(), apply, visit);
  }
}

}  // namespace ptx

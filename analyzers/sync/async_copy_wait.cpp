// SNC006 async-copy-read-before-wait
//
// What it does: follows the asynchronous copies `cp.async.ca/.cg.shared.global` along every
// path of a function — each joins the open group, `cp.async.commit_group` closes it,
// `cp.async.wait_group N` waits until at most N groups are pending, `cp.async.wait_all` (and a
// wait on an mbarrier) waits for all — and reports a load from shared memory that reads the
// bytes a copy still pending on every path writes (the same thread's destination, evaluated
// for concrete threads).
//
// Why is this bad: cp.async only starts the copy; the destination holds its new bytes once a
// wait covers the copy's group. A read before that sees the old contents or a mix of both.
// `cp.async.wait_group 1` after two commits leaves the newer group in flight: reading its
// buffer is the classic off-by-one of a double-buffered pipeline.
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
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "RuleContext.h"
#include "alignment/AddressAlignment.h"
#include "flow/ThreadModel.h"

namespace ptx {
namespace {

// The copies in flight: the open group and the committed groups, oldest first, each a list of
// cp.async instructions.
struct Pending {
  std::vector<std::uint32_t> open;
  std::vector<std::vector<std::uint32_t>> groups;
  bool operator==(const Pending&) const = default;
  bool empty() const { return open.empty() && groups.empty(); }
};

enum class AsyncStep { None, Copy, Commit, WaitGroup, WaitAll };

AsyncStep stepOf(const RuleContext& context, const InstructionSite& site) {
  std::string_view opcode = context.textOf(site.opcode);
  if (opcode == "mbarrier") {
    InstructionView view = viewOf(context, site);
    if (view.has(".try_wait") || view.has(".test_wait")) return AsyncStep::WaitAll;
    return AsyncStep::None;
  }
  if (opcode != "cp") return AsyncStep::None;
  InstructionView view = viewOf(context, site);
  if (!view.has(".async") || view.has(".bulk")) return AsyncStep::None;
  if (view.has(".commit_group")) return AsyncStep::Commit;
  if (view.has(".wait_group")) return AsyncStep::WaitGroup;
  if (view.has(".wait_all")) return AsyncStep::WaitAll;
  if (view.has(".mbarrier")) return AsyncStep::None;  // cp.async.mbarrier.arrive
  if ((view.has(".ca") || view.has(".cg")) && view.has(".shared") && site.operandCount >= 3) return AsyncStep::Copy;
  if ((view.has(".ca") || view.has(".cg")) && view.has(".shared::cta") && site.operandCount >= 3)
    return AsyncStep::Copy;
  return AsyncStep::None;
}

}  // namespace

void checkAsyncCopyReadBeforeWait(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (function.bodyScope == kNoScope || function.instructionCount == 0 || function.hasSyntaxErrors) continue;
    bool anyCopy = false;
    for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
      anyCopy = anyCopy || stepOf(context, module.instructions[i]) == AsyncStep::Copy;
    }
    if (!anyCopy) continue;
    flow::FunctionFlow& flow = context.flows.flowOfFunction(f);
    flow::ThreadModel& model = context.flows.threadsOfFunction(f);
    const std::vector<flow::BasicBlock>& blocks = flow.blocks();
    auto apply = [&](std::uint32_t i, Pending& state) {
      const InstructionSite& site = module.instructions[i];
      switch (stepOf(context, site)) {
        case AsyncStep::Copy:
          state.open.push_back(i);
          break;
        case AsyncStep::Commit:
          if (!state.open.empty()) state.groups.push_back(std::move(state.open));
          state.open.clear();
          break;
        case AsyncStep::WaitGroup: {
          auto keep = flow.valueOf(i, module.operands[site.firstOperand]).constantValue();
          if (!keep) {
            state = Pending{};  // Unknown count: assume it waits for everything.
          } else if (state.groups.size() > *keep) {
            state.groups.erase(state.groups.begin(), state.groups.end() - static_cast<std::ptrdiff_t>(*keep));
          }
          break;
        }
        case AsyncStep::WaitAll:
          state = Pending{};
          break;
        case AsyncStep::None:
          if (site.isCall) state = Pending{};  // The callee may wait.
          break;
      }
    };
    // Forward: a block's entry state is its predecessors' exit state when they all agree
    // (what is pending on every path), nothing otherwise.
    std::vector<std::optional<Pending>> entry(blocks.size()), exit(blocks.size());
    if (!blocks.empty()) entry[0] = Pending{};
    for (int round = 0; round < 8; ++round) {
      bool changed = false;
      for (std::uint32_t b = 0; b < blocks.size(); ++b) {
        std::optional<Pending> in;
        if (b == 0) {
          in = Pending{};
        } else {
          bool agree = true;
          for (std::uint32_t p : blocks[b].predecessors) {
            if (!exit[p]) continue;  // Not reached yet (a back edge): no say.
            if (!in)
              in = exit[p];
            else if (!(*in == *exit[p]))
              agree = false;
          }
          if (in && !agree) in = Pending{};
        }
        if (!in) continue;
        Pending state = *in;
        for (std::uint32_t i = blocks[b].first; i < blocks[b].end; ++i) apply(i, state);
        if (!(entry[b] == in) || !(exit[b] == state)) {
          entry[b] = in;
          exit[b] = state;
          changed = true;
        }
      }
      if (!changed) break;
    }
    constexpr std::uint64_t kSeeds[] = {0x5a5a, 0xa5a5};
    for (std::uint32_t b = 0; b < blocks.size(); ++b) {
      if (!entry[b]) continue;
      Pending state = *entry[b];
      for (std::uint32_t i = blocks[b].first; i < blocks[b].end; ++i) {
        const InstructionSite& site = module.instructions[i];
        if (!state.empty() && context.textOf(site.opcode) == "ld" && site.operandCount >= 2) {
          InstructionView view = viewOf(context, site);
          auto size = accessSize(view);
          if ((view.has(".shared") || view.has(".shared::cta")) && size) {
            std::vector<std::uint32_t> pending = state.open;
            for (const auto& group : state.groups) pending.insert(pending.end(), group.begin(), group.end());
            const InstructionOperand& address = module.operands[site.firstOperand + 1];
            for (std::uint32_t copy : pending) {
              const InstructionSite& copySite = module.instructions[copy];
              auto copySize = flow.valueOf(copy, module.operands[copySite.firstOperand + 2]).constantValue();
              if (!copySize) continue;
              // The same thread reads the bytes its own copy writes, for every thread tried
              // that executes both, under both seeds.
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
              if (!overlaps || !anyThread) continue;
              context.warn("SNC006", Category::Sync, site.statement,
                           "this load reads shared memory that a cp.async still in flight writes: no "
                           "cp.async.wait_group or wait_all covering its group comes first");
              context.out.back().related.push_back({copySite.statement, "the asynchronous copy"});
              break;
            }
          }
        }
        apply(i, state);
      }
    }
  }
}

}  // namespace ptx

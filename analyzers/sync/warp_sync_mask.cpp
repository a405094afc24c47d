// SNC002 warp-sync-mask
//
// What it does: checks the member mask of `shfl.sync`, `vote.sync`, `match.sync`,
// `redux.sync` and `bar.warp.sync` against the lanes that execute the instruction. Where
// the mask is a constant and the branches around the instruction decide, for each lane of a
// warp, whether it gets there (conditions on %tid.x or %laneid), it reports a lane that
// executes the instruction but is missing from the mask, and lanes the mask names that never
// get there.
//
// Why is this bad: every executing thread must be in the mask, and every thread the mask
// names must execute the same instruction: otherwise the behaviour is undefined (PTX ISA:
// shfl.sync, vote.sync, bar.warp.sync). A full mask (0xffffffff) inside `if (lane < 16)`
// waits for sixteen lanes that never arrive; on an H200 it ran silently and
// compute-sanitizer's synccheck reported nothing (docs/cuda-facts.md).
//
// Example:
//     setp.lt.u32 %p1, %r1, 16;             // %r1 = %laneid
//     @!%p1 bra DONE;
//     shfl.sync.bfly.b32 %r2, %r3, 1, 31, 0xffffffff;
//
// Use instead:
//     shfl.sync.bfly.b32 %r2, %r3, 1, 31, 0x0000ffff;
//
// References: PTX ISA shfl.sync, vote.sync, match.sync, redux.sync, bar.warp.sync
// (membermask); CUDA C++ Programming Guide, warp shuffle functions.
#include <bit>
#include <cstdio>
#include <string>

#include "RuleContext.h"
#include "flow/ThreadModel.h"

namespace ptx {
namespace {

std::string hex(std::uint32_t value) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "0x%08x", value);
  return buffer;
}

std::string laneList(std::uint32_t lanes) {
  std::string text;
  int first = -1;
  for (int lane = 0; lane <= 32; ++lane) {
    bool in = lane < 32 && ((lanes >> lane) & 1);
    if (in && first < 0) first = lane;
    if (!in && first >= 0) {
      if (!text.empty()) text += ", ";
      text += std::to_string(first);
      if (lane - 1 > first) {
        text += '-';
        text += std::to_string(lane - 1);
      }
      first = -1;
    }
  }
  return text;
}

// The warp-level collectives that take a member mask in their `.sync` forms.
bool isMaskedCollective(const InstructionFacts& facts) {
  return facts.is(Family::Shfl) || facts.is(Family::Vote) || facts.is(Family::Match) || facts.is(Family::Redux);
}

// Warp-synchronous instructions and barriers of the function. Lanes a mask names that never
// arrive are harmless when they exit instead (the instruction waits only for lanes that have
// not exited): with no other synchronizing instruction in the function, there is none they
// could be waiting at.
std::size_t synchronizingInstructions(const RuleContext& context, std::size_t function) {
  const FunctionInfo& info = context.module.functions[function];
  std::size_t count = 0;
  for (std::uint32_t i = info.firstInstruction; i < info.firstInstruction + info.instructionCount; ++i) {
    const InstructionFacts& facts = context.module.factsOf(i);
    bool barrier = facts.is(Family::Bar) || facts.is(Family::Barrier);
    if (facts.has(Modifier::Sync) && (isMaskedCollective(facts) || barrier)) ++count;
  }
  return count;
}

}  // namespace

void checkWarpSyncMask(const RuleContext& context) {
  const Module& module = context.module;
  for (std::uint32_t index = 0; index < module.instructions.size(); ++index) {
    const InstructionSite& site = module.instructions[index];
    if (site.inDamagedCode || site.isCall || site.operandCount == 0) continue;
    // shfl.sync, vote.sync, match.sync, redux.sync and bar.warp.sync: the mask is the last operand.
    const InstructionFacts& facts = module.factsOf(site);
    if (!(isMaskedCollective(facts) && facts.has(Modifier::Sync)) && !facts.does(kWarpBarrier)) continue;
    flow::FunctionFlow* flow = context.flows.flowOfInstruction(index);
    if (flow == nullptr) continue;
    const InstructionOperand& maskOperand = module.operands[site.firstOperand + site.operandCount - 1];
    auto mask = flow->valueOf(index, maskOperand).constantValue();
    if (!mask) continue;
    auto members = static_cast<std::uint32_t>(*mask);
    flow::ThreadModel& model = context.flows.threadsOfFunction(flow->functionIndex());
    // The lanes of the first warp that execute it, under two seeds for the uniform inputs.
    std::uint32_t executing = 0;
    bool known = true;
    // A warp has 32 lanes unless the declared block is narrower.
    std::uint32_t lanes = model.launch().declared ? std::min<std::uint32_t>(32, model.launch().ntid[0]) : 32;
    for (std::uint64_t seed : {0x51ull, 0x9e37ull}) {
      std::uint32_t set = 0;
      for (std::uint32_t lane = 0; lane < lanes && known; ++lane) {
        flow::ThreadCoordinates thread;
        thread.tid = {lane, 0, 0};
        auto executes = model.executes(index, thread, seed, flow::kVariesInCta);
        if (!executes)
          known = false;
        else if (*executes)
          set |= 1u << lane;
      }
      if (seed == 0x51ull)
        executing = set;
      else if (set != executing)
        known = false;
    }
    if (!known || executing == 0) continue;
    std::uint32_t outside = executing & ~members;
    std::uint32_t absent = members & ~executing;
    if (lanes < 32) absent &= (1u << lanes) - 1;
    std::string message;
    if (outside != 0) {
      message = concat({"member mask ", hex(members), " leaves out lane", std::popcount(outside) > 1 ? "s " : " ",
                        laneList(outside), ", which execute", std::popcount(outside) > 1 ? " " : "s ", "this '",
                        context.textOf(site.opcode), "'"});
    } else if (absent != 0 && synchronizingInstructions(context, flow->functionIndex()) > 1) {
      message = concat({"member mask ", hex(members), " names lane", std::popcount(absent) > 1 ? "s " : " ",
                        laneList(absent), ", which never reach", std::popcount(absent) > 1 ? " " : "es ", "this '",
                        context.textOf(site.opcode), "' (only lanes ", laneList(executing), " do)"});
    } else {
      continue;
    }
    context.report("SNC002", site.statement, std::move(message));
  }
}

}  // namespace ptx

// Schedule: the order in which ptxas is expected to issue each basic block's instructions.
//
// ptxas does not keep PTX order: its list scheduler hides latency by issuing long-latency
// instructions (global, local and texture loads above all) as early as their operands allow,
// so their results are live across the instructions they were hoisted over. Registers follow
// the schedule, not the source: a 3x3 texture filter whose PTX fetches one tap at a time needs
// nine taps' registers once the fetches are issued together.
//
// The model is a textbook list scheduler per basic block: a dependence graph over registers
// (true, anti and output dependences) and memory (per state space, with fences and barriers
// ordering everything), each instruction weighted by a latency class, and a greedy pass that
// issues, among the ready instructions, the one with the longest latency path to the block's
// end (its critical path). Over the pressure target it issues what frees registers first and,
// among instructions that add as many registers, the one that lets a waiting consumer issue
// (its last missing operand): ptxas issues a register-blocked GEMM's shared-memory fragment
// loads just ahead of the FMAs that read them, not all of an unrolled k-loop's loads in source
// order ahead of every FMA. No constant here is fitted to the corpus: the latency classes are
// the hardware's orders of magnitude (ALU a few cycles, shared memory tens, global memory and
// textures hundreds).
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "flow/FunctionFlow.h"
#include "model/Module.h"
#include "registers/RegisterPressure.h"

namespace ptx::registers {

// For each of `blocks` (the function's blocks, or the register analysis's if-converted
// regions: contiguous runs of instructions), its instructions in the order they are expected to issue: the
// result has one entry per instruction of the function (function-local indices), block by
// block in block order, each block's entries a permutation of its own instructions.
// What the scheduler needs to know of a block's liveness: the 32-bit units live into it, which
// values leave it, and the pressure above which it stops hoisting.
struct BlockLiveness {
  std::int64_t liveInUnits = 0;
  std::int64_t pressureTarget = 0;
  std::function<bool(std::uint32_t)> liveOut;
};

// Blocks larger than this keep their source order: ptxas schedules them in regions anyway,
// and the greedy pass is quadratic in the ready list.
constexpr std::uint32_t kLargestScheduledBlock = 4096;

std::vector<std::uint32_t> scheduleBlocks(const Module& module, const flow::FunctionFlow& flow,
                                          const std::vector<flow::BasicBlock>& blocks, const LoweredFunction& lowered,
                                          const std::function<BlockLiveness(std::uint32_t)>& livenessOf);

}  // namespace ptx::registers

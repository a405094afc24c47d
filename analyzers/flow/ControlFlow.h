// ControlFlow: the blocks of a function's control-flow graph and what their shape implies —
// immediate dominators, immediate post-dominators and natural loops. FunctionFlow builds the
// blocks and computes the rest once, on first request; the thread model, the synchronization
// rules and the register estimate all read them from there.
#pragma once

#include <cstdint>
#include <vector>

namespace ptx::flow {

struct BasicBlock {
  std::uint32_t first = 0;  // Instruction indices (into Module::instructions): [first, end).
  std::uint32_t end = 0;
  std::vector<std::uint32_t> successors;    // Block numbers.
  std::vector<std::uint32_t> predecessors;
};

// A natural loop: a back edge `latch` -> `head` whose head dominates the latch, and its body,
// the blocks that reach the latch without passing the head (the head included).
struct NaturalLoop {
  std::uint32_t head = 0;
  std::uint32_t latch = 0;
  std::vector<bool> body;  // Per block.
};

// An immediate dominator that does not exist: that of a block the entry does not reach.
constexpr std::uint32_t kNoDominator = UINT32_MAX;

// Per block, its immediate dominator: the entry (block 0) is its own, an unreachable block
// has kNoDominator.
std::vector<std::uint32_t> immediateDominators(const std::vector<BasicBlock>& blocks);

// Per block, its immediate post-dominator, blocks.size() standing for the exit. The exit
// follows every block without successors and every block that reaches none (an endless
// loop), so every block has one.
std::vector<std::uint32_t> immediatePostDominators(const std::vector<BasicBlock>& blocks);

// Whether block `a` dominates block `b` in the tree `dominators` (immediateDominators).
bool dominatesIn(const std::vector<std::uint32_t>& dominators, std::uint32_t a, std::uint32_t b);

// The natural loops, one per back edge, by latch block and then by the order of its
// successors.
std::vector<NaturalLoop> naturalLoopsOf(const std::vector<BasicBlock>& blocks,
                                        const std::vector<std::uint32_t>& dominators);

}  // namespace ptx::flow

// ThreadModel: what differs between the threads that run one function, for the race and
// synchronization rules — the facade over the pieces that answer it:
// - the launch shape it assumes (flow/LaunchShape.h);
// - divergence: which values and branches may differ between threads of a CTA or between
//   CTAs (flow/Divergence.h);
// - evaluation for one concrete thread, path conditions and loop iterations
//   (flow/ThreadEvaluation.h), on the integer semantics shared with the value analysis;
// - the barrier structure: whether one instruction can follow another with no barrier between
//   them, and barrier intervals (flow/BarrierIntervals.h).
// Dominators, post-dominators and natural loops are FunctionFlow's.
//
// Anything the model cannot evaluate is "unknown" (nullopt), and the rules stay quiet then.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "flow/BarrierIntervals.h"
#include "flow/Divergence.h"
#include "flow/FunctionFlow.h"
#include "flow/LaunchShape.h"
#include "flow/ThreadEvaluation.h"
#include "model/Module.h"

namespace ptx::flow {

class ThreadModel {
 public:
  ThreadModel(std::string_view text, const Module& module, FunctionFlow& flow);

  const LaunchShape& launch() const { return launch_; }

  // Divergence of the value an operand reads at an instruction (register, special register).
  std::uint8_t divergenceOf(std::uint32_t instruction, const InstructionOperand& operand) {
    return divergence_.ofRead(instruction, operand);
  }
  // Whether the conditional branch ending `block` may split the threads of a CTA.
  std::uint8_t branchDivergence(std::uint32_t block) const { return divergence_.ofBranch(block); }
  // The block that post-dominates `block` immediately (blocks().size() for the exit).
  std::uint32_t immediatePostDominator(std::uint32_t block) const { return flow_.immediatePostDominators()[block]; }
  // Whether block `a` dominates block `b` (every path from the entry to b passes a).
  bool dominates(std::uint32_t a, std::uint32_t b) const { return flow_.dominates(a, b); }
  // The natural loops of the function (FunctionFlow::naturalLoops).
  const std::vector<NaturalLoop>& naturalLoops() { return flow_.naturalLoops(); }
  // Whether a definition of `reg` inside `loop` reaches `instruction` (the value may change
  // from one iteration to the next).
  bool definedInLoop(const NaturalLoop& loop, std::uint32_t instruction, RegisterKey reg);
  // The value of a source operand for one thread on the first iteration of the loops around
  // it: a value merged from several definitions is read as the one from before the loop (as
  // conditionSplitsThreads evaluates conditions), or nullopt.
  std::optional<std::uint64_t> evaluateOnEntry(std::uint32_t instruction, const InstructionOperand& operand,
                                               const ThreadCoordinates& thread, std::uint64_t seed) {
    return evaluator_.evaluateOnEntry(instruction, operand, thread, seed);
  }
  // Evaluation in iteration k (0 the first) of `loop`: a value the loop carries (merged from a
  // definition before the loop and one definition in the loop that reaches the read only
  // around the back edge) is read as on entry, or as that definition left it in iteration
  // k - 1 (the loop's definitions evaluated k times over). Unknown when a value merges
  // otherwise (one another loop carries included), or the loop is large (over 256
  // instructions). `branchTakenInIteration` for the branch ending a block.
  // Several accesses of one thread at once, in each iteration 0..last: per iteration, per
  // (instruction, address), -1 when unknown, 0 when the thread does not execute it (as
  // executes() with `divergence`), 1 and the address. Empty iterations (all unknown) when the
  // loop is large.
  using IterationAccess = flow::IterationAccess;
  std::vector<std::vector<IterationAccess>> accessesInIterations(
      const NaturalLoop& loop, int last, const std::vector<std::pair<std::uint32_t, const InstructionOperand*>>& accesses,
      const ThreadCoordinates& thread, std::uint64_t seed, std::uint8_t divergence) {
    return evaluator_.accessesInIterations(loop, last, accesses, thread, seed, divergence);
  }
  std::optional<bool> branchTakenInIteration(const NaturalLoop& loop, int iteration, std::uint32_t block,
                                             const ThreadCoordinates& thread, std::uint64_t seed) {
    return evaluator_.branchTakenInIteration(loop, iteration, block, thread, seed);
  }
  // Whether two threads of a small block are shown to take the conditional branch ending
  // `block` different ways (on a loop's first iteration, under two seeds).
  bool conditionSplitsThreads(std::uint32_t block) { return evaluator_.conditionSplitsThreads(block); }

  // The value of a source operand for one thread, or nullopt.
  std::optional<std::uint64_t> evaluate(std::uint32_t instruction, const InstructionOperand& operand,
                                        const ThreadCoordinates& thread, std::uint64_t seed) {
    return evaluator_.evaluate(instruction, operand, thread, seed);
  }
  // A stand-in for the value a source operand holds for one thread: two threads (or two
  // instructions) with equal stand-ins hold equal values, and different stand-ins under two
  // seeds mean values that differ for almost every content of memory and every uniform input.
  // Integers evaluate() knows stand for themselves; anything else is a hash of how it is
  // computed: its family and modifiers over its sources' stand-ins, down to thread
  // coordinates, uniform inputs and loaded words (named by their space and address, so that
  // two threads loading one word load one value). Floating-point arithmetic included, since
  // it is deterministic. nullopt when some input is unknown: a value chosen among several
  // definitions (a loop-carried sum), a call's, an atomic's or a shuffle's result, a load at
  // an address the model cannot evaluate.
  std::optional<std::uint64_t> valueTerm(std::uint32_t instruction, const InstructionOperand& operand,
                                         const ThreadCoordinates& thread, std::uint64_t seed) {
    return evaluator_.valueTerm(instruction, operand, thread, seed);
  }
  // The address `[base+offset]` designates for one thread.
  std::optional<std::uint64_t> evaluateAddress(std::uint32_t instruction, const InstructionOperand& address,
                                               const ThreadCoordinates& thread, std::uint64_t seed) {
    return evaluator_.evaluateAddress(instruction, address, thread, seed);
  }
  // Whether the thread executes the instruction, as far as conditions whose divergence
  // intersects `divergence` decide it (the others are assumed to hold: they are the same for
  // the threads compared). nullopt when a deciding condition cannot be evaluated.
  std::optional<bool> executes(std::uint32_t instruction, const ThreadCoordinates& thread, std::uint64_t seed,
                               std::uint8_t divergence) {
    return evaluator_.executes(instruction, thread, seed, divergence);
  }
  // executes() and evaluateAddress() for every thread of the set `useThreads` named, one
  // answer per thread in its order: the same answers, each value computed once for all the
  // threads (ThreadEvaluator's columns). `releaseThreads` lets the values go.
  void useThreads(const std::vector<ThreadCoordinates>& threads) { evaluator_.useThreads(threads); }
  void releaseThreads() { evaluator_.releaseThreads(); }
  std::vector<std::optional<bool>> executesForThreads(std::uint32_t instruction, std::uint64_t seed,
                                                      std::uint8_t divergence) {
    return evaluator_.executesForThreads(instruction, seed, divergence);
  }
  std::vector<std::optional<std::uint64_t>> addressForThreads(std::uint32_t instruction,
                                                              const InstructionOperand& address, std::uint64_t seed) {
    return evaluator_.addressForThreads(instruction, address, seed);
  }

  // Whether `to` can execute after `from` (or `from` again, around a loop) with no barrier of
  // `kind` or stronger between them, on some path (BarrierKind::None: on any path).
  bool reachableWithout(std::uint32_t from, std::uint32_t to, BarrierKind kind) {
    return barriers_.reachableWithout(from, to, kind);
  }
  BarrierKind barrierKindOf(std::uint32_t instruction) const { return barriers_.barrierKindOf(instruction); }
  // For each of `instructions`, the barrier intervals it lies in: the intervals start at the
  // function's entry and after every barrier of `kind` or stronger, and an instruction lies in
  // each one that reaches it with no such barrier between. Two instructions that share an
  // interval can run at the same time in different threads (the two sides of an if/else
  // included). Returns one sorted list of interval numbers per instruction.
  // With `countedBarriersCut` false, barriers that only some threads take part in
  // (countedBarrierId) do not start intervals.
  std::vector<std::vector<std::uint32_t>> barrierIntervals(const std::vector<std::uint32_t>& instructions,
                                                           BarrierKind kind, bool countedBarriersCut = true) {
    return barriers_.intervals(instructions, kind, countedBarriersCut);
  }
  // A CTA barrier with a thread count (`bar.sync 1, 64`, `barrier.sync.aligned 2, 128`,
  // `bar.arrive 1, 64`, `bar.red.popc.u32 %r, 1, 64, %p`): only the threads that execute a
  // barrier instruction of the same number take part, so it orders no other thread. Its
  // number, kUnknownBarrierId when a register gives it; nullopt for any other instruction.
  static constexpr std::uint32_t kUnknownBarrierId = BarrierIntervals::kUnknownBarrierId;
  // Whether an instruction orders threads of different CTAs of a cluster (BarrierKind::Cluster).
  bool ordersCluster(std::uint32_t instruction) const { return barriers_.ordersCluster(instruction); }
  // Whether `instruction`, a barrier of kind `barrier` (barrierKindOf), ends a barrier-free
  // stretch for threads that `kind` asks about: any barrier for Warp, CTA barriers for Cta,
  // what orders a cluster's CTAs for Cluster.
  bool cuts(std::uint32_t instruction, BarrierKind barrier, BarrierKind kind) const {
    return barriers_.cuts(instruction, barrier, kind);
  }
  std::optional<std::uint32_t> countedBarrierId(std::uint32_t instruction) const {
    return barriers_.countedBarrierId(instruction);
  }

  // Whether the function reads %ctaid, %nctaid or %cluster_ctarank (is written for a grid of
  // several CTAs).
  bool readsCtaCoordinates() const { return reads_.cta; }
  // Whether it reads %tid, %laneid or %warpid: otherwise every thread does the same, which
  // only makes sense for a launch of one thread (as test kernels are).
  bool readsThreadCoordinates() const { return reads_.thread; }
  // Which of %ctaid.x, .y, .z it reads (bits 0, 1, 2).
  std::uint8_t ctaDimensionsRead() const { return reads_.ctaDimensions; }

 private:
  FunctionFlow& flow_;
  LaunchShape launch_;
  CoordinateReads reads_;
  Divergence divergence_;
  ThreadEvaluator evaluator_;
  BarrierIntervals barriers_;
};

}  // namespace ptx::flow

// ThreadModel: what differs between the threads that run one function, for the race and
// synchronization rules.
//
// Three facts, each sound in the direction its rules need:
// - Divergence: which values may differ between threads of a CTA (they depend on %tid,
//   %laneid, %warpid, an atomic's result, a load through such an address, or a choice made
//   under such a branch) or between CTAs (%ctaid, %cluster_ctarank). A branch on such a
//   value may split the threads; the blocks between it and its post-dominator are divergent.
// - Evaluation for one concrete thread: an operand's value as a function of the thread's
//   coordinates, with every value that is the same for all threads (a parameter, a loaded
//   word at a uniform address, a loop counter that does not depend on the thread) replaced
//   by a pseudo-random number drawn from a seed. Two threads that compute the same address
//   under two different seeds compute it for every value of those uniform inputs, up to a
//   negligible chance: that is how the race rule proves two accesses collide, GPUVerify's
//   two-thread reduction carried out on concrete thread pairs.
// - Path conditions: the thread-dependent branch conditions an instruction executes under
//   (the edges of dominating branches it is reached through), evaluated per thread.
// And the barrier structure: whether one instruction can follow another with no barrier
// between them.
//
// Anything the model cannot evaluate is "unknown" (nullopt), and the rules stay quiet then.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "flow/FunctionFlow.h"
#include "model/Module.h"

namespace ptx::flow {

// Bits of Divergence.
constexpr std::uint8_t kVariesInCta = 1;       // Threads of one CTA may see different values.
constexpr std::uint8_t kVariesAcrossCtas = 2;  // CTAs may see different values.
// With kVariesInCta: lanes of one warp may see different values too (not so for a vote's or
// a reduction's result, or %warpid, which differ only between warps).
constexpr std::uint8_t kVariesInWarp = 4;

// The two seeds a proof by concrete threads evaluates under (flow::ThreadModel): a fact that
// holds under both holds for every value of the uniform inputs, up to a negligible chance.
constexpr std::uint64_t kProofSeeds[] = {0x1234567, 0x7654321};

struct ThreadCoordinates {
  std::array<std::uint32_t, 3> tid{};
  std::array<std::uint32_t, 3> ctaid{};
};

// What the model assumes of the launch: the CTA shape from .reqntid/.maxntid when the
// function declares one, else 64 x 1 x 1 threads (two warps), and a grid of 4 x 1 x 1 CTAs.
struct LaunchShape {
  std::array<std::uint32_t, 3> ntid{64, 1, 1};
  std::array<std::uint32_t, 3> nctaid{4, 1, 1};
  // CTAs per cluster: .reqnctapercluster when declared, else 2 x 1 x 1 (the smallest cluster
  // in which CTAs can reach each other's shared memory).
  std::array<std::uint32_t, 3> cluster{2, 1, 1};
  bool declared = false;  // ntid comes from .reqntid/.maxntid.
};

// Cluster: what orders threads of different CTAs of a cluster (barrier.cluster, and the
// operations the model cannot follow: mbarriers, fences, acquire/release, calls), not the
// CTA barriers.
enum class BarrierKind : std::uint8_t { None, Warp, Cta, Cluster };

// A natural loop: a back edge `latch` -> `head` whose head dominates the latch, and its body,
// the blocks that reach the latch without passing the head (the head included).
struct NaturalLoop {
  std::uint32_t head = 0;
  std::uint32_t latch = 0;
  std::vector<bool> body;  // Per block.
};

class ThreadModel {
 public:
  ThreadModel(std::string_view text, const Module& module, FunctionFlow& flow);

  const LaunchShape& launch() const { return launch_; }

  // Divergence of the value an operand reads at an instruction (register, special register).
  std::uint8_t divergenceOf(std::uint32_t instruction, const InstructionOperand& operand);
  // Whether the conditional branch ending `block` may split the threads of a CTA.
  std::uint8_t branchDivergence(std::uint32_t block) const { return branchDivergence_[block]; }
  // The block that post-dominates `block` immediately (blocks().size() for the exit).
  std::uint32_t immediatePostDominator(std::uint32_t block) const { return postDominator_[block]; }
  // Whether block `a` dominates block `b` (every path from the entry to b passes a).
  bool dominates(std::uint32_t a, std::uint32_t b) const;
  // The natural loops of the function, one per back edge, by latch block and then by the
  // order of its successors; built on first request.
  const std::vector<NaturalLoop>& naturalLoops();
  // Whether a definition of `reg` inside `loop` reaches `instruction` (the value may change
  // from one iteration to the next).
  bool definedInLoop(const NaturalLoop& loop, std::uint32_t instruction, RegisterKey reg);
  // The value of a source operand for one thread on the first iteration of the loops around
  // it: a value merged from several definitions is read as the one from before the loop (as
  // conditionSplitsThreads evaluates conditions), or nullopt.
  std::optional<std::uint64_t> evaluateOnEntry(std::uint32_t instruction, const InstructionOperand& operand,
                                               const ThreadCoordinates& thread, std::uint64_t seed);
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
  struct IterationAccess {
    std::int8_t state = -1;
    std::uint64_t address = 0;
  };
  std::vector<std::vector<IterationAccess>> accessesInIterations(
      const NaturalLoop& loop, int last, const std::vector<std::pair<std::uint32_t, const InstructionOperand*>>& accesses,
      const ThreadCoordinates& thread, std::uint64_t seed, std::uint8_t divergence);
  std::optional<bool> branchTakenInIteration(const NaturalLoop& loop, int iteration, std::uint32_t block,
                                             const ThreadCoordinates& thread, std::uint64_t seed);
  // Whether two threads of a small block are shown to take the conditional branch ending
  // `block` different ways (on a loop's first iteration, under two seeds).
  bool conditionSplitsThreads(std::uint32_t block);

  // The value of a source operand for one thread, or nullopt.
  std::optional<std::uint64_t> evaluate(std::uint32_t instruction, const InstructionOperand& operand,
                                        const ThreadCoordinates& thread, std::uint64_t seed);
  // A stand-in for the value a source operand holds for one thread: two threads (or two
  // instructions) with equal stand-ins hold equal values, and different stand-ins under two
  // seeds mean values that differ for almost every content of memory and every uniform input.
  // Integers evaluate() knows stand for themselves; anything else is a hash of how it is
  // computed: its opcode and modifiers over its sources' stand-ins, down to thread
  // coordinates, uniform inputs and loaded words (named by their space and address, so that
  // two threads loading one word load one value). Floating-point arithmetic included, since
  // it is deterministic. nullopt when some input is unknown: a value chosen among several
  // definitions (a loop-carried sum), a call's, an atomic's or a shuffle's result, a load at
  // an address the model cannot evaluate.
  std::optional<std::uint64_t> valueTerm(std::uint32_t instruction, const InstructionOperand& operand,
                                         const ThreadCoordinates& thread, std::uint64_t seed);
  // The address `[base+offset]` designates for one thread.
  std::optional<std::uint64_t> evaluateAddress(std::uint32_t instruction, const InstructionOperand& address,
                                               const ThreadCoordinates& thread, std::uint64_t seed);
  // Whether the thread executes the instruction, as far as conditions whose divergence
  // intersects `divergence` decide it (the others are assumed to hold: they are the same for
  // the threads compared). nullopt when a deciding condition cannot be evaluated.
  std::optional<bool> executes(std::uint32_t instruction, const ThreadCoordinates& thread, std::uint64_t seed,
                               std::uint8_t divergence);

  // Whether `to` can execute after `from` (or `from` again, around a loop) with no barrier of
  // `kind` or stronger between them, on some path (BarrierKind::None: on any path).
  bool reachableWithout(std::uint32_t from, std::uint32_t to, BarrierKind kind);
  BarrierKind barrierKindOf(std::uint32_t instruction) const;
  // For each of `instructions`, the barrier intervals it lies in: the intervals start at the
  // function's entry and after every barrier of `kind` or stronger, and an instruction lies in
  // each one that reaches it with no such barrier between. Two instructions that share an
  // interval can run at the same time in different threads (the two sides of an if/else
  // included). Returns one sorted list of interval numbers per instruction.
  // With `countedBarriersCut` false, barriers that only some threads take part in
  // (countedBarrierId) do not start intervals.
  std::vector<std::vector<std::uint32_t>> barrierIntervals(const std::vector<std::uint32_t>& instructions,
                                                           BarrierKind kind, bool countedBarriersCut = true);
  // A CTA barrier with a thread count (`bar.sync 1, 64`, `barrier.sync.aligned 2, 128`,
  // `bar.arrive 1, 64`, `bar.red.popc.u32 %r, 1, 64, %p`): only the threads that execute a
  // barrier instruction of the same number take part, so it orders no other thread. Its
  // number, kUnknownBarrierId when a register gives it; nullopt for any other instruction.
  static constexpr std::uint32_t kUnknownBarrierId = UINT32_MAX;
  // Whether an instruction orders threads of different CTAs of a cluster (BarrierKind::Cluster).
  bool ordersCluster(std::uint32_t instruction) const;
  // Whether `instruction`, a barrier of kind `barrier` (barrierKindOf), ends a barrier-free
  // stretch for threads that `kind` asks about: any barrier for Warp, CTA barriers for Cta,
  // what orders a cluster's CTAs for Cluster.
  bool cuts(std::uint32_t instruction, BarrierKind barrier, BarrierKind kind) const;
  std::optional<std::uint32_t> countedBarrierId(std::uint32_t instruction) const;

  // Whether the function reads %ctaid, %nctaid or %cluster_ctarank (is written for a grid of
  // several CTAs).
  bool readsCtaCoordinates() const { return readsCtaCoordinates_; }
  // Whether it reads %tid, %laneid or %warpid: otherwise every thread does the same, which
  // only makes sense for a launch of one thread (as test kernels are).
  bool readsThreadCoordinates() const { return readsThreadCoordinates_; }
  // Which of %ctaid.x, .y, .z it reads (bits 0, 1, 2).
  std::uint8_t ctaDimensionsRead() const { return ctaDimensionsRead_; }

  // A result several rules derive from this model for the same function (the race search's
  // witnesses, which RAC001 and RAC003 both read), computed by the first that asks. The model
  // keeps it without knowing its type: `fill` completes a default-built one when the slot is
  // empty.
  template <typename Result, typename Fill>
  const Result& shared(std::uint32_t slot, Fill fill) {
    if (auto it = sharedResults_.find(slot); it != sharedResults_.end()) {
      return *static_cast<const Result*>(it->second.get());
    }
    auto result = std::make_shared<Result>();
    fill(*result);
    sharedResults_[slot] = result;
    return *result;
  }

 private:
  struct Edge {
    std::uint32_t branchBlock;  // A block ending in a conditional branch...
    bool taken;                 // ...whose branch is (true) or is not (false) taken.
  };
  void computeLaunch();
  void computePostDominators();
  void computeDivergence();
  std::uint8_t definitionDivergence(std::uint32_t definition);
  std::uint8_t readDivergence(std::uint32_t instruction, const InstructionOperand& operand);
  const std::vector<Edge>& conditionsOf(std::uint32_t block);
  std::optional<std::uint64_t> evaluateDefinition(std::uint32_t definition, const ThreadCoordinates& thread,
                                                  std::uint64_t seed, int depth);
  std::optional<std::uint64_t> evaluateOperand(std::uint32_t instruction, const InstructionOperand& operand,
                                               const ThreadCoordinates& thread, std::uint64_t seed, int depth);
  std::optional<std::uint64_t> evaluateRegister(std::uint32_t instruction, RegisterKey reg,
                                                const ThreadCoordinates& thread, std::uint64_t seed, int depth);
  std::optional<std::uint64_t> termOfOperand(std::uint32_t instruction, const InstructionOperand& operand,
                                            const ThreadCoordinates& thread, std::uint64_t seed, int depth,
                                            std::unordered_map<std::uint32_t, std::optional<std::uint64_t>>& memo);
  std::optional<std::uint64_t> termOfDefinition(std::uint32_t definition, const ThreadCoordinates& thread,
                                               std::uint64_t seed, int depth,
                                               std::unordered_map<std::uint32_t, std::optional<std::uint64_t>>& memo);
  void pushFeasibleSuccessors(std::uint32_t block, std::vector<std::uint32_t>& into);
  std::optional<bool> branchTaken(std::uint32_t block, const ThreadCoordinates& thread, std::uint64_t seed);
  std::string_view textOf(ByteRange range) const { return text_.substr(range.begin, range.end - range.begin); }
  // What evaluation needs of an instruction's spelling, decoded once.
  enum class Operation : std::uint8_t { Other, Add, And, Cvt, Cvta, Div, Ld, Ldu, Mad, Mad24, Mapa, Max, Min, Mov, Mul, Mul24, Neg, Not, Or, Rem, Selp, Setp, Shl, Shr, Sub, Xor };
  static Operation operationOf(std::string_view opcode);
  struct Shape {
    bool ready = false;
    std::string_view opcode;
    Operation operation = Operation::Other;
    std::vector<std::string_view> types;
    std::string_view comparison;
    bool wide = false;
    bool high = false;
    unsigned bits = 64;
  };
  const Shape& shapeOf(std::uint32_t instruction);
  const std::vector<std::uint32_t>& reachingAt(std::uint32_t instruction, RegisterKey reg);

  std::string_view text_;
  const Module& module_;
  FunctionFlow& flow_;
  std::uint32_t first_ = 0;
  LaunchShape launch_;
  bool readsCtaCoordinates_ = false;
  bool readsThreadCoordinates_ = false;
  std::uint8_t ctaDimensionsRead_ = 0;
  std::vector<std::uint8_t> definitionDivergence_;  // Per definition of flow_.
  std::vector<std::uint8_t> branchDivergence_;      // Per block.
  std::vector<std::uint8_t> blockDivergence_;       // Per block: divergence of the branches it depends on.
  std::vector<std::uint32_t> postDominator_;        // Per block.
  std::vector<std::uint32_t> dominator_;            // Per block (immediate), the entry its own.
  std::vector<std::vector<Edge>> conditions_;       // Per block, built on demand.
  std::vector<bool> conditionsBuilt_;
  // Memo of evaluations for the current (thread, seed).
  std::vector<std::uint32_t> memoStamp_;
  std::vector<std::optional<std::uint64_t>> memo_;
  std::uint32_t stamp_ = 1;
  bool firstIteration_ = false;            // Loop-carried values read as their value on entry.
  // Set while evaluating in an iteration of one loop (forIterations).
  const NaturalLoop* iterationLoop_ = nullptr;
  int iteration_ = 0;
  std::unordered_map<std::uint32_t, std::optional<std::uint64_t>> carried_;  // Definition -> value after iteration 0.
  // Runs `onIteration(k)` for k = 0..last with the loop's carried values as iteration k sees
  // them; false (nothing run) when the loop is too large.
  template <typename OnIteration>
  bool forIterations(const NaturalLoop& loop, int last, const ThreadCoordinates& thread, std::uint64_t seed,
                     OnIteration onIteration);
  // The definitions in `loop` of registers also defined before it: those whose values the
  // loop may carry (carriedDefinition picks among them), per loop.
  const std::vector<std::uint32_t>& carriedCandidates(const NaturalLoop& loop);
  std::unordered_map<const NaturalLoop*, std::vector<std::uint32_t>> carriedCandidates_;
  std::optional<std::uint32_t> carriedDefinition(std::uint32_t instruction, const std::vector<std::uint32_t>& reaching,
                                                 bool& ambiguous);
  std::vector<Shape> shapes_;              // Per instruction of the function.
  std::vector<BarrierKind> barrierKinds_;  // Per instruction, built on first use.
  std::vector<std::int8_t> splits_;        // Per block: conditionSplitsThreads, -1 until asked.
  std::unordered_map<std::uint64_t, std::pair<RegisterKey, std::vector<std::uint32_t>>> reaching_;
  ThreadCoordinates memoThread_{};
  std::uint64_t memoSeed_ = 0;
  std::unordered_map<std::uint32_t, std::shared_ptr<void>> sharedResults_;
  std::optional<std::vector<NaturalLoop>> loops_;
};

}  // namespace ptx::flow

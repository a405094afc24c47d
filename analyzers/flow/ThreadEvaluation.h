// ThreadEvaluation: the values one concrete thread computes in a function, and the paths it
// takes.
//
// An operand's value is evaluated as a function of the thread's coordinates, with every value
// that is the same for all threads (a parameter, a loaded word at a uniform address, a loop
// counter that does not depend on the thread) replaced by a pseudo-random number drawn from a
// seed. Two threads that compute the same address under two different seeds compute it for
// every value of those uniform inputs, up to a negligible chance: that is how the race rules
// prove two accesses collide, GPUVerify's two-thread reduction carried out on concrete thread
// pairs. Integer semantics are flow/IntegerOps.h, shared with the value analysis.
//
// Path conditions are the thread-dependent branch conditions an instruction executes under
// (the edges of dominating branches it is reached through), evaluated per thread; loops are
// followed iteration by iteration for the values they carry (ThreadPaths.cpp).
//
// Anything the evaluator cannot follow is "unknown" (nullopt), and the rules stay quiet then.
#pragma once

#include <array>
#include <deque>
#include <cstdint>
#include <forward_list>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "flow/Divergence.h"
#include "flow/FunctionFlow.h"
#include "flow/LaunchShape.h"
#include "model/Module.h"

namespace ptx::flow {

// One access of one thread in one loop iteration (ThreadEvaluator::accessesInIterations):
// state -1 when unknown, 0 when the thread does not execute it, 1 with its address.
struct IterationAccess {
  std::int8_t state = -1;
  std::uint64_t address = 0;
};

class ThreadEvaluator {
 public:
  ThreadEvaluator(std::string_view text, const Module& module, FunctionFlow& flow, const LaunchShape& launch,
                  Divergence& divergence);

  // The value of a source operand for one thread, or nullopt.
  std::optional<std::uint64_t> evaluate(std::uint32_t instruction, const InstructionOperand& operand,
                                        const ThreadCoordinates& thread, std::uint64_t seed);
  // The same on the first iteration of the loops around it (ThreadModel::evaluateOnEntry).
  std::optional<std::uint64_t> evaluateOnEntry(std::uint32_t instruction, const InstructionOperand& operand,
                                               const ThreadCoordinates& thread, std::uint64_t seed);
  // The address `[base+offset]` designates for one thread.
  std::optional<std::uint64_t> evaluateAddress(std::uint32_t instruction, const InstructionOperand& address,
                                               const ThreadCoordinates& thread, std::uint64_t seed);
  // A stand-in for the value a source operand holds for one thread (ThreadModel::valueTerm).
  std::optional<std::uint64_t> valueTerm(std::uint32_t instruction, const InstructionOperand& operand,
                                         const ThreadCoordinates& thread, std::uint64_t seed);

  // The same two questions for every thread of a set at once (ThreadColumns.cpp): each value
  // a definition holds is computed once for all of them, lane by lane, where asking thread by
  // thread recomputes it for each thread through the memo. The answers are the ones asked one
  // thread at a time would give (the depth limit counted from the access, as there). The set
  // is the one `useThreads` named last; its values are kept until `releaseThreads`.
  using Lanes = std::vector<std::optional<std::uint64_t>>;
  void useThreads(const std::vector<ThreadCoordinates>& threads);
  void releaseThreads();
  std::vector<std::optional<bool>> executesForThreads(std::uint32_t instruction, std::uint64_t seed,
                                                      std::uint8_t divergence);
  Lanes addressForThreads(std::uint32_t instruction, const InstructionOperand& address, std::uint64_t seed);

  // Whether the thread executes the instruction, as far as conditions whose divergence
  // intersects `divergence` decide it (ThreadModel::executes).
  std::optional<bool> executes(std::uint32_t instruction, const ThreadCoordinates& thread, std::uint64_t seed,
                               std::uint8_t divergence);
  // Whether the thread takes the conditional branch ending `block`.
  std::optional<bool> branchTaken(std::uint32_t block, const ThreadCoordinates& thread, std::uint64_t seed);
  // Whether two threads of a small block are shown to take that branch different ways.
  bool conditionSplitsThreads(std::uint32_t block);

  // Loops followed iteration by iteration (ThreadModel::accessesInIterations).
  std::vector<std::vector<IterationAccess>> accessesInIterations(
      const NaturalLoop& loop, int last, const std::vector<std::pair<std::uint32_t, const InstructionOperand*>>& accesses,
      const ThreadCoordinates& thread, std::uint64_t seed, std::uint8_t divergence);
  std::optional<bool> branchTakenInIteration(const NaturalLoop& loop, int iteration, std::uint32_t block,
                                             const ThreadCoordinates& thread, std::uint64_t seed);

 private:
  using TermMemo = std::unordered_map<std::uint32_t, std::optional<std::uint64_t>>;
  struct Edge {
    std::uint32_t branchBlock;  // A block ending in a conditional branch...
    bool taken;                 // ...whose branch is (true) or is not (false) taken.
  };
  const std::vector<Edge>& conditionsOf(std::uint32_t block);
  // Per successor of a two-way branch block: the blocks reachable from it without going
  // through the branch block (which is itself included when reached).
  const std::array<std::vector<bool>, 2>& reachableThroughEdges(std::uint32_t branchBlock);
  std::optional<std::uint64_t> evaluateDefinition(std::uint32_t definition, const ThreadCoordinates& thread,
                                                  std::uint64_t seed, int depth);
  std::optional<std::uint64_t> evaluateOperand(std::uint32_t instruction, const InstructionOperand& operand,
                                               const ThreadCoordinates& thread, std::uint64_t seed, int depth);
  std::optional<std::uint64_t> evaluateSpecialRegister(std::string_view name, const ThreadCoordinates& thread) const;
  std::optional<std::uint64_t> evaluateRegister(std::uint32_t instruction, RegisterKey reg,
                                                const ThreadCoordinates& thread, std::uint64_t seed, int depth);
  // What a load reads, in two parts: what does not depend on the thread (once per load), and
  // the value for one thread (its CTA decides, for memory other than parameters and constants).
  struct LoadPlan {
    bool known = false;  // False: the value is unknown for every thread.
    bool perCta = false;
    std::uint64_t identity = 0;
    unsigned width = 0;
  };
  LoadPlan loadPlan(const Definition& def);
  std::optional<std::uint64_t> loadValue(const LoadPlan& plan, const ThreadCoordinates& thread, std::uint64_t seed);
  std::optional<std::uint64_t> evaluateLoad(const Definition& def, const ThreadCoordinates& thread,
                                            std::uint64_t seed);
  std::optional<std::uint64_t> termOfOperand(std::uint32_t instruction, const InstructionOperand& operand,
                                             const ThreadCoordinates& thread, std::uint64_t seed, int depth,
                                             TermMemo& memo);
  std::optional<std::uint64_t> termOfDefinition(std::uint32_t definition, const ThreadCoordinates& thread,
                                                std::uint64_t seed, int depth, TermMemo& memo);
  const std::vector<std::uint32_t>& reachingAt(std::uint32_t instruction, RegisterKey reg);
  // What operand `operand` of `instruction` reads, resolved once (the evaluation asks the same
  // question for every thread): the register and the definitions reaching it. Null when
  // `operand` is not one of the instruction's own operands (a guard or base register rebuilt
  // from its text: rebuiltRead answers for those).
  struct OperandRead {
    bool resolved = false;
    std::optional<RegisterKey> reg;
    std::vector<std::uint32_t> reaching;  // A copy: reaching_ may reuse a slot for another key.
    // A literal's or constant expression's value, or an address's constant offset; nullopt
    // when not constant. Set once `constantResolved`.
    bool constantResolved = false;
    std::optional<std::uint64_t> constant;
  };
  OperandRead* operandRead(std::uint32_t instruction, const InstructionOperand& operand);
  // The constant value of `operand` at `instruction` through FunctionFlow::valueOf, remembered
  // in its OperandRead when it is one of the instruction's own operands (for an Address: its
  // offset, `address`'s operandRead).
  std::optional<std::uint64_t> constantOf(std::uint32_t instruction, const InstructionOperand& operand,
                                          const InstructionOperand& owner);
  std::optional<std::uint64_t> evaluateReaching(std::uint32_t instruction, RegisterKey reg,
                                                const std::vector<std::uint32_t>& reaching,
                                                const ThreadCoordinates& thread, std::uint64_t seed, int depth);
  // Runs `onIteration(k)` for k = 0..last with the loop's carried values as iteration k sees
  // them; false (nothing run) when the loop is too large.
  template <typename OnIteration>
  bool forIterations(const NaturalLoop& loop, int last, const ThreadCoordinates& thread, std::uint64_t seed,
                     OnIteration onIteration);
  // The definitions in `loop` of registers also defined before it: those whose values the
  // loop may carry (carriedDefinition picks among them), per loop.
  const std::vector<std::uint32_t>& carriedCandidates(const NaturalLoop& loop);
  std::optional<std::uint32_t> carriedDefinition(std::uint32_t instruction, const std::vector<std::uint32_t>& reaching,
                                                 bool& ambiguous);
  std::string_view textOf(ByteRange range) const { return text_.substr(range.begin, range.end - range.begin); }

  // Column evaluation (ThreadColumns.cpp): a value for every thread of columnThreads_, or one
  // for all of them when they agree.
  struct Column {
    bool uniform = true;
    std::optional<std::uint64_t> value;  // When uniform.
    Lanes lanes;                         // Otherwise, one per thread.
    std::optional<std::uint64_t> at(std::size_t lane) const { return uniform ? value : lanes[lane]; }
  };
  // A column computed here, or one kept in the cache.
  struct ColumnRef {
    const Column* kept = nullptr;
    Column own;
    const Column& get() const { return kept != nullptr ? *kept : own; }
  };
  struct ColumnSlot {
    std::uint8_t state = 0;  // 0: not computed, 1: being computed, 2: computed.
    Column column;
  };
  struct SeedColumns {
    std::uint64_t seed = 0;
    std::vector<ColumnSlot> definitions;  // Per definition.
    // Per block and divergence mask: whether each thread reaches it (executes() before the
    // instruction's own guard).
    std::unordered_map<std::uint64_t, std::vector<std::optional<bool>>> blockReach;
  };
  SeedColumns& columnsFor(std::uint64_t seed);
  static Column uniformColumn(std::optional<std::uint64_t> value);
  void collapse(Column& column) const;
  ColumnRef columnOfOperand(std::uint32_t instruction, const InstructionOperand& operand, SeedColumns& seed,
                            int depth);
  ColumnRef columnOfRead(const OperandRead& read, SeedColumns& seed, int depth);
  ColumnRef columnOfReaching(RegisterKey reg, const std::vector<std::uint32_t>& reaching, SeedColumns& seed,
                             int depth);
  ColumnRef columnOfDefinition(std::uint32_t definition, SeedColumns& seed, int depth);
  Column computeDefinitionColumn(std::uint32_t definition, SeedColumns& seed, int depth);
  // Whether each thread holds the guard of `instruction` (negation applied); nullopt per thread
  // when unknown, and for every thread when it has no guard the model reads.
  std::vector<std::optional<bool>> guardHoldsForThreads(std::uint32_t instruction, SeedColumns& seed);
  std::vector<ThreadCoordinates> columnThreads_;
  std::deque<SeedColumns> seedColumns_;  // A deque: callers hold references while another seed is added.

  std::string_view text_;
  const Module& module_;
  FunctionFlow& flow_;
  const LaunchShape& launch_;
  Divergence& divergence_;
  std::vector<std::vector<Edge>> conditions_;  // Per block, built on demand.
  std::vector<bool> conditionsBuilt_;
  // Per block, whether the current thread reaches it (executes() without the instruction's
  // own guard), for the current context and the divergence mask it was asked with: the
  // accesses of one block share their path conditions.
  struct BlockReach {
    std::uint32_t stamp = 0;
    std::uint8_t divergence = 0;
    std::optional<bool> reached;
  };
  std::vector<BlockReach> blockReach_;
  // Starts a new memo context when the thread or the seed changed.
  void useContext(const ThreadCoordinates& thread, std::uint64_t seed);
  std::unordered_map<std::uint32_t, std::array<std::vector<bool>, 2>> edgeReach_;
  std::vector<std::int8_t> splits_;  // Per block: conditionSplitsThreads, -1 until asked.
  // Memo of evaluations, one entry per definition: the value, whether it read the thread's
  // coordinates (its own, or through a definition it used), which of them it read, and the
  // thread and mode (seed, iteration) it was computed for. An entry holds for another thread
  // that agrees on the coordinates it read: a value that reads none (a parameter, a pointer
  // converted to the global window, a loop bound) for every thread under one seed, a value of
  // %tid.x alone for the threads of one column, a value of %tid alone for the same thread of two
  // CTAs (the race rules order their threads so that such threads come one after the other).
  // One record per definition, so that the check reads one cache line.
  struct MemoEntry {
    std::uint32_t mode = 0;    // uniformContext_ when computed; 0: never.
    std::uint32_t thread = 0;  // Into threadsSeen_.
    std::uint64_t value = 0;
    bool known = false;
    bool readsThread = false;
    std::uint8_t reads = 0;  // kReads* bits.
  };
  std::vector<MemoEntry> memo_;
  std::uint32_t stamp_ = 1;  // The current (thread, seed, mode), for blockReach_.
  // What an evaluation read of the thread: bits for %tid.x, %tid.y, %tid.z, and for anything
  // that differs between CTAs (%ctaid and what derives from it, a word loaded from memory other
  // than parameters and constant banks), all four for a value carried from the thread's
  // previous iteration.
  static constexpr std::uint8_t kReadsTidX = 1, kReadsTidY = 2, kReadsTidZ = 4, kReadsCta = 8, kReadsAll = 15;
  std::uint8_t coordinatesRead_ = 0;
  // The threads evaluated so far, numbered (few: the race rules' and the branch search's sets).
  std::vector<ThreadCoordinates> threadsSeen_;
  std::unordered_map<std::uint64_t, std::uint32_t> threadIds_;
  std::uint32_t currentThread_ = 0;
  std::uint32_t uniformContext_ = 1;  // Changes with the seed and with any change of mode.
  bool memoHolds(const MemoEntry& entry) const {
    if (entry.mode != uniformContext_) return false;
    if (entry.thread == currentThread_ || entry.reads == 0) return true;
    const ThreadCoordinates& a = threadsSeen_[entry.thread];
    const ThreadCoordinates& b = threadsSeen_[currentThread_];
    std::uint8_t reads = entry.reads;
    return ((reads & kReadsTidX) == 0 || a.tid[0] == b.tid[0]) && ((reads & kReadsTidY) == 0 || a.tid[1] == b.tid[1]) &&
           ((reads & kReadsTidZ) == 0 || a.tid[2] == b.tid[2]) && ((reads & kReadsCta) == 0 || a.ctaid == b.ctaid);
  }
  // Set while evaluating when a thread coordinate is read (a special register, a load whose
  // word differs by CTA, a value carried from the thread's previous iteration).
  bool readsThread_ = false;
  // A new mode of evaluation (first iteration, an iteration of a loop): the memos start over.
  void newContext() {
    ++stamp_;
    ++uniformContext_;
  }
  ThreadCoordinates contextThread_{};
  std::uint64_t memoSeed_ = 0;
  std::unordered_map<std::uint64_t, std::pair<RegisterKey, std::vector<std::uint32_t>>> reaching_;
  // Per instruction of the function (from its first), per operand: operandRead's answers.
  std::vector<std::vector<OperandRead>> reads_;
  // Per instruction: the same for register operands rebuilt from its text (a guard, an
  // address's base register), by where they start. A forward_list: an evaluation holding one
  // entry may add another for the same instruction (a loop's pointer chase), which must not
  // move it; and an empty one allocates nothing (an empty std::deque allocates over 500 bytes,
  // which per instruction of every function of a 50 MB module was 600 MB).
  std::vector<std::forward_list<std::pair<std::uint32_t, OperandRead>>> rebuiltReads_;
  OperandRead* rebuiltRead(std::uint32_t instruction, const InstructionOperand& operand);
  // An instruction's guard register and its address's base register, found in their text and
  // resolved once (executes() and evaluateAddress() ask about them for every thread). Kept for
  // the instructions asked about only: an index per instruction into a deque of plans.
  struct SitePlan {
    bool guardResolved = false;
    bool guarded = false;
    OperandRead* guard = nullptr;  // Null when the instruction is outside the function.
    std::optional<InstructionOperand> guardOperand;
    std::uint8_t guardDivergence = 0;
    bool baseResolved = false;
    std::uint32_t baseOf = 0;  // The address operand (its start) the base below belongs to.
    std::optional<InstructionOperand> baseOperand;
    OperandRead* base = nullptr;
  };
  SitePlan* sitePlan(std::uint32_t instruction);
  // What an address `[base+offset]` is evaluated from, the same for every thread: its base
  // register (with the read resolved for it, kept in the instruction's plan) or the variable
  // it names, and its constant offset. `known` is false for `[0x100]` and the like (not a
  // variable the model places) and for an offset the model cannot fold.
  struct AddressParts {
    bool known = false;
    std::optional<InstructionOperand> base;
    OperandRead* baseRead = nullptr;  // Null when the instruction is outside the function.
    SymbolId symbol = kNoSymbol;
    std::uint64_t offset = 0;
  };
  AddressParts addressParts(std::uint32_t instruction, const InstructionOperand& address);
  SitePlan* guardPlan(std::uint32_t instruction);
  std::vector<std::uint32_t> sitePlanIndex_;  // Per instruction: 1 + index into sitePlans_, 0 for none.
  std::deque<SitePlan> sitePlans_;
  // The value a register read resolved by operandRead/rebuiltRead holds for the thread.
  std::optional<std::uint64_t> evaluateRead(std::uint32_t instruction, const OperandRead& read,
                                            const ThreadCoordinates& thread, std::uint64_t seed, int depth);
  std::uint32_t firstInstruction_ = 0;
  bool firstIteration_ = false;  // Loop-carried values read as their value on entry.
  // Set while evaluating in an iteration of one loop (forIterations).
  const NaturalLoop* iterationLoop_ = nullptr;
  int iteration_ = 0;
  std::unordered_map<std::uint32_t, std::optional<std::uint64_t>> carried_;  // Definition -> value after iteration 0.
  std::unordered_map<const NaturalLoop*, std::vector<std::uint32_t>> carriedCandidates_;
};

}  // namespace ptx::flow

// FunctionFlow: the dataflow facts of one function body that the analyzers share — its
// control-flow graph with dominators, post-dominators and natural loops (flow/ControlFlow.h),
// reaching definitions of registers, and a value analysis for addresses (which variable an
// address points into, the offset, and the known bits of the value: alignment is "the low k
// bits are zero"), over the integer operations flow/IntegerOps.h decodes.
//
// Everything is computed on demand and memoized: the CFG when the flow is built, dominance
// and loops on first request, the reaching definitions of a register the first time one of
// its uses is asked about, and a value by a fixpoint over only the definitions it depends on. Facts are sound
// approximations: "unknown" is always a safe answer, so a rule that needs a fact to report
// stays quiet when the analysis cannot prove it.
//
// The core knows nothing of rules: this layer reads the Module and the text only.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <ranges>
#include <string_view>
#include <unordered_map>
#include <span>
#include <vector>

#include "flow/ControlFlow.h"
#include "flow/FunctionResults.h"
#include "flow/IntegerOps.h"
#include "flow/KnownBits.h"
#include "model/Module.h"

namespace ptx::flow {

// A register as the analysis sees it: its declaration and, for `%r<N>` ranges, the index.
struct RegisterKey {
  SymbolId symbol = kNoSymbol;
  std::uint32_t index = 0;
  bool operator==(const RegisterKey&) const = default;
};

// Consecutive indices into Module::operands.
using OperandIndices = std::ranges::iota_view<std::uint32_t, std::uint32_t>;

// What is known about a value.
struct AbstractValue {
  bool computed = false;       // False only while a fixpoint has not reached it yet.
  KnownBits bits;              // Bits of the value itself (for an address: the address).
  SymbolId base = kNoSymbol;   // The value is the address of `base` plus `offset`...
  KnownBits offset;            // ...whose known bits are these.

  static AbstractValue unknown() { return {true, {}, kNoSymbol, {}}; }
  static AbstractValue constant(std::uint64_t value) { return {true, KnownBits::constant(value), kNoSymbol, {}}; }

  bool isConstant() const { return bits.isConstant(); }
  std::optional<std::uint64_t> constantValue() const {
    return bits.isConstant() ? std::optional(bits.value()) : std::nullopt;
  }
  // The offset from `base` when it is exact.
  std::optional<std::int64_t> exactOffset() const {
    if (base == kNoSymbol || !offset.isConstant()) return std::nullopt;
    return static_cast<std::int64_t>(offset.value());
  }
  AbstractValue meet(const AbstractValue& other) const;
  bool operator==(const AbstractValue&) const = default;
};

// One definition of a register: the instruction and the register it writes.
struct Definition {
  std::uint32_t instruction = 0;
  RegisterKey reg;
  std::uint32_t operand = 0;  // Index into Module::operands of the written operand.
};

// The declared (or natural) alignment of a variable or parameter in bytes: `.align N`, else
// the size of its element type; nullopt when neither is known.
std::optional<std::uint64_t> declaredAlignment(const Symbol& symbol);

// The size in bytes of a fundamental type (Modifier::B32 → 4, Modifier::F16x2 → 4); nullopt
// for opaque or unknown types.
std::optional<std::uint32_t> typeSizeInBytes(Modifier type);

class FunctionFlow {
 public:
  FunctionFlow(std::string_view text, const Module& module, std::size_t functionIndex);

  std::size_t functionIndex() const { return function_; }
  const std::vector<BasicBlock>& blocks() const { return blocks_; }
  // The block holding an instruction of this function.
  std::uint32_t blockOf(std::uint32_t instruction) const;
  const std::vector<Definition>& definitions() const { return definitions_; }

  // Dominance over blocks() (flow/ControlFlow.h), computed once, on first request.
  const std::vector<std::uint32_t>& immediateDominators();
  // Whether block `a` dominates block `b` (every path from the entry to b passes a).
  bool dominates(std::uint32_t a, std::uint32_t b) { return dominatesIn(immediateDominators(), a, b); }
  // Per block, the block that post-dominates it immediately (blocks().size() for the exit).
  const std::vector<std::uint32_t>& immediatePostDominators();
  // The natural loops, one per back edge, by latch block and then by the order of its
  // successors.
  const std::vector<NaturalLoop>& naturalLoops();

  // The integer operation an instruction of this function performs, decoded once.
  const IntegerOp& integerOpOf(std::uint32_t instruction);

  // The operands (indices into Module::operands) an instruction writes: the destination,
  // the elements of a destination vector or predicate pair, a call's return values. They are
  // always consecutive, so a range of indices (no allocation: asked once per instruction by
  // several analyses).
  OperandIndices definedOperands(std::uint32_t instruction) const;

  // `[%rd+8]`: the base register as a Register operand spanning its spelling, if the base is one.
  std::optional<InstructionOperand> baseRegisterOf(const InstructionOperand& address) const;

  // `@%p1` / `@!%p1`: the guard predicate as a Register operand, if the instruction has one.
  std::optional<InstructionOperand> guardRegisterOf(const InstructionSite& site) const;

  // `!%p1`: the predicate register as a Register operand spanning its spelling.
  InstructionOperand negatedRegisterOf(const InstructionOperand& negated) const;

  // The register an operand names (a Register operand, or an element of a vector), if any.
  std::optional<RegisterKey> registerOf(const InstructionOperand& operand) const;

  // Definitions (indices into definitions()) of `reg` that reach `instruction` (before it
  // executes). Empty when none does (the register is then undefined there or a parameter).
  std::vector<std::uint32_t> reachingDefinitions(std::uint32_t instruction, RegisterKey reg);
  // The same without a copy: valid until the next call of either on this flow (a loop over it
  // must not ask again).
  std::span<const std::uint32_t> reaching(std::uint32_t instruction, RegisterKey reg);

  // The value of a source operand: a register, literal, constant expression or a variable
  // name (its address).
  AbstractValue valueOf(std::uint32_t instruction, const InstructionOperand& operand);

  // The address an Address operand `[base+offset]` designates.
  AbstractValue addressOf(std::uint32_t instruction, const InstructionOperand& operand);

  // The value a definition writes.
  AbstractValue valueOfDefinition(std::uint32_t definition);

 private:
  void buildBlocks();
  void collectDefinitions();
  AbstractValue evaluate(std::uint32_t definition);
  AbstractValue operandValue(std::uint32_t instruction, const InstructionOperand& operand);
  AbstractValue symbolAddress(SymbolId symbol) const;
  void solve(std::uint32_t definition);
  std::string_view textOf(ByteRange range) const { return text_.substr(range.begin, range.end - range.begin); }

  struct KeyHash {
    std::size_t operator()(const RegisterKey& key) const {
      return std::hash<std::uint64_t>()((std::uint64_t{key.symbol} << 32) | key.index);
    }
  };
  // Per register with several definitions: the definitions reaching each block's entry.
  // A block's answer is first searched for backwards from it (to the nearest definitions on
  // each path): most such registers (accumulators, loop counters) are asked about in a few
  // blocks near their definitions, and solving for every block costs a pass over the
  // function's blocks per register. A register whose searches have walked as many blocks as
  // the function has is solved for every block at once instead.
  struct RegisterReach {
    // The last definition of the register in each block that has one: (block, definition),
    // by block.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> lastInBlock;
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> searched;  // Block -> its answer.
    std::size_t searchSteps = 0;
    // Once solved: per block an index into `sets`, the distinct lists (sets[0] is the empty
    // one). Blocks share few distinct lists, and a list per block per register cost gigabytes
    // on functions of thousands of blocks.
    std::vector<std::uint32_t> atBlockEntry;
    std::vector<std::vector<std::uint32_t>> sets;
    bool solved = false;
  };
  const std::vector<std::uint32_t>& reachingBlockEntry(RegisterKey reg, std::uint32_t block);
  void solveReach(RegisterReach& reach);
  std::vector<std::uint32_t> searchMark_;  // Per block: the search that last visited it.
  std::uint32_t searchStamp_ = 0;

  std::string_view text_;
  const Module& module_;
  std::size_t function_;
  std::uint32_t first_ = 0;
  std::uint32_t end_ = 0;
  std::vector<BasicBlock> blocks_;
  std::vector<std::uint32_t> blockOfInstruction_;  // Indexed by instruction - first_.
  std::vector<Definition> definitions_;
  std::vector<std::uint32_t> firstDefinitionOf_;  // Per instruction - first_: into definitions_.
  // The definitions of each register, in instruction order: definitionsByRegister_ holds
  // every definition index grouped by register, and the open-addressing table below maps a
  // register to its slice. (A hash map of one vector per register cost two allocations per
  // register; a `-G` function writes each of its thousands of registers once.)
  struct RegisterSlice {
    RegisterKey key;
    std::uint32_t first = 0;
    std::uint32_t count = 0;  // 0: an empty slot.
  };
  std::vector<std::uint32_t> definitionsByRegister_;
  std::vector<RegisterSlice> registerSlices_;  // Power-of-two size, linear probing.
  std::span<const std::uint32_t> definitionsOf(RegisterKey reg) const;
  void indexDefinitionsByRegister();
  std::unordered_map<RegisterKey, RegisterReach, KeyHash> reach_;
  std::vector<AbstractValue> values_;  // Per definition; `computed` once solved.
  std::vector<bool> solved_;
  std::optional<std::vector<std::uint32_t>> dominators_;      // Per block.
  std::optional<std::vector<std::uint32_t>> postDominators_;  // Per block.
  std::optional<std::vector<NaturalLoop>> loops_;
  std::vector<IntegerOp> integerOps_;        // Per instruction - first_, once decoded_.
  std::vector<std::uint8_t> decoded_;
};

class ThreadModel;

// Thrown by a FlowCache asked for a flow it has not built yet once its stop flag is set
// (stopWhen): the lint that reads it was abandoned (LintOptions::stop), and building a
// function's flow is most of what a dataflow rule costs.
struct StopRequested {};

// The flows of one analysis, built on first request, shared by every rule of one lint run.
class FlowCache {
 public:
  FlowCache(std::string_view text, const Module& module);
  ~FlowCache();
  FlowCache(const FlowCache&) = delete;
  FlowCache& operator=(const FlowCache&) = delete;
  // From now on, a request for a flow or thread model not built yet throws StopRequested
  // once `flag` is set.
  void stopWhen(const std::atomic<bool>* flag) { stop_ = flag; }
  // The flow of the function holding `instruction`, or null when it is not in a body.
  FunctionFlow* flowOfInstruction(std::uint32_t instruction);
  FunctionFlow& flowOfFunction(std::size_t functionIndex);
  // The thread model (flow/ThreadModel.h) of a function, built on first request.
  ThreadModel& threadsOfFunction(std::size_t functionIndex);
  // A result several rules derive for one function (flow/FunctionResults.h), computed by the
  // first that asks: `fill` completes a default-built one.
  template <typename Result, typename Fill>
  const Result& resultOf(std::size_t functionIndex, Fill fill) {
    return resultsOf(functionIndex).get<Result>(0, fill);
  }
  // The same for a result about the whole module (the call graph between functions).
  template <typename Result, typename Fill>
  const Result& moduleResultOf(Fill fill) {
    return moduleResults_.get<Result>(0, fill);
  }

 private:
  void throwIfStopped() const {
    if (stop_ != nullptr && stop_->load(std::memory_order_relaxed)) throw StopRequested{};
  }

  std::string_view text_;
  const Module& module_;
  const std::atomic<bool>* stop_ = nullptr;
  std::vector<std::unique_ptr<FunctionFlow>> flows_;  // Per function, built lazily.
  std::vector<std::unique_ptr<ThreadModel>> threads_;  // Per function, built lazily.
  std::vector<std::unique_ptr<FunctionResults>> results_;  // Per function, built lazily.
  FunctionResults moduleResults_;
  FunctionResults& resultsOf(std::size_t functionIndex);
};

}  // namespace ptx::flow

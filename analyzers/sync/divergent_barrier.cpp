// SNC001 divergent-barrier
//
// What it does: finds a CTA-wide barrier (`bar.sync`, `barrier.sync`, `bar.red`,
// `barrier.red` without a thread count) that only some threads of the CTA reach: it lies
// between a branch whose condition depends on the thread and the point where the branch's
// paths meet again, and two threads of a small block (128 x 8 x 2) are shown to take that
// branch different ways. The idiom of threads leaving early (`if (i >= n) return;` before
// the barrier) is not reported: threads that skip the barrier only to exit are not waited
// for. Two more ways of splitting are recognised where concrete threads cannot show one: a
// comparison of a word each thread loads from its own global address with a bound the same
// for all threads (`if (in[tid] > 0) __syncthreads();`: the input decides), and a block- or
// grid-stride loop (`for (i = tid; i < n; i += blockDim.x)`) whose start depends on the thread
// while its bound is not a constant: the trip counts differ unless n is a multiple of the
// step.
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
#include <algorithm>
#include <optional>
#include <unordered_map>
#include <string>

#include "RuleContext.h"
#include "flow/ThreadModel.h"

namespace ptx {
namespace {

// A CTA barrier that waits for all the threads of the CTA.
bool isCtaBarrier(const RuleContext& context, const InstructionSite& site) {
  const InstructionFacts& facts = context.module.factsOf(site);
  if (!facts.does(kCtaBarrier)) return false;
  // With a thread count (`bar.sync 1, 64`) only that many threads take part: named barriers
  // for warp-specialized code, divergent on purpose. A reduction (`bar.red.popc.u32 d, a,
  // {b,} p`) has a destination and a predicate besides.
  return facts.has(Modifier::Red) ? site.operandCount <= 3 : site.operandCount <= 1;
}

constexpr std::uint64_t kSeeds[] = {0x4242, 0x1717};

// The `setp` a conditional branch at the end of a block tests, with its two compared operands.
struct Comparison {
  std::uint32_t instruction = 0;
  std::uint32_t left = 0, right = 0;  // Operand indices.
  Modifier relation = Modifier::Unknown;  // Lt, Ge, ...
};

std::optional<Comparison> comparisonOf(const RuleContext& context, flow::FunctionFlow& flow, std::uint32_t branch) {
  const Module& module = context.module;
  auto guard = flow.guardRegisterOf(module.instructions[branch]);
  if (!guard) return std::nullopt;
  auto reg = flow.registerOf(*guard);
  if (!reg) return std::nullopt;
  auto definitions = flow.reachingDefinitions(branch, *reg);
  if (definitions.size() != 1) return std::nullopt;
  std::uint32_t setp = flow.definitions()[definitions[0]].instruction;
  const InstructionSite& site = module.instructions[setp];
  const InstructionFacts& facts = module.factsOf(site);
  if (!facts.is(Family::Setp) || site.operandCount != 3 || flow.guardRegisterOf(site)) return std::nullopt;
  if (facts.isFloatType() || facts.has(Modifier::Ftz)) return std::nullopt;  // Floating point: NaN and such.
  Comparison comparison{setp, site.firstOperand + 1, site.firstOperand + 2, Modifier::Unknown};
  for (Modifier modifier : facts.modifiers) {
    switch (modifier) {
      case Modifier::Eq: case Modifier::Ne: case Modifier::Lt: case Modifier::Le: case Modifier::Gt:
      case Modifier::Ge: case Modifier::Lo: case Modifier::Ls: case Modifier::Hi: case Modifier::Hs:
        comparison.relation = modifier;
        break;
      default:
        break;
    }
  }
  if (comparison.relation == Modifier::Unknown) return std::nullopt;
  return comparison;
}

// Whether an operand is a word each thread loads from an address of its own (two threads of
// the first 64 load different words under both seeds) from global or generic memory,
// possibly moved, converted, masked, shifted or offset by values the same for all threads.
// Input data can hold any words, so a comparison of such a word with a uniform bound goes
// different ways in different threads for some input.
bool loadedPerThread(const RuleContext& context, flow::FunctionFlow& flow, flow::ThreadModel& model,
                     std::uint32_t instruction, const InstructionOperand& operand, int depth = 0) {
  const Module& module = context.module;
  if (depth > 6) return false;
  auto reg = flow.registerOf(operand);
  if (!reg) return false;
  auto definitions = flow.reachingDefinitions(instruction, *reg);
  if (definitions.size() != 1) return false;
  const flow::Definition& definition = flow.definitions()[definitions[0]];
  const InstructionSite& site = module.instructions[definition.instruction];
  if (site.isCall || flow.guardRegisterOf(site) || definition.operand != site.firstOperand) return false;
  const InstructionFacts& facts = module.factsOf(site);
  if (facts.is(Family::Ld)) {
    // Global or generic memory, which input data fills; not a volatile load (a flag).
    bool fromInput = facts.space == StateSpace::Global || facts.space == StateSpace::None;
    if (!fromInput || facts.semantics == Semantics::Volatile || site.operandCount != 2) return false;
    const InstructionOperand& address = module.operands[site.firstOperand + 1];
    for (std::uint64_t seed : kSeeds) {
      flow::ThreadCoordinates a, b;
      b.tid = {1, 0, 0};
      auto x = model.evaluateAddress(definition.instruction, address, a, seed);
      auto y = model.evaluateAddress(definition.instruction, address, b, seed);
      if (!x || !y || *x == *y) return false;
    }
    return true;
  }
  bool masks = facts.is(Family::And), divides = facts.is(Family::Rem);
  if (!facts.is(Family::Mov) && !facts.is(Family::Cvt) && !masks && !facts.is(Family::Shr) && !facts.is(Family::Add) &&
      !facts.is(Family::Sub) && !divides) {
    return false;
  }
  // One source loaded per thread, the others uniform and, for a mask, not zero.
  std::optional<std::uint32_t> loaded;
  for (std::uint32_t o = site.firstOperand + 1; o < site.firstOperand + site.operandCount; ++o) {
    const InstructionOperand& source = module.operands[o];
    if (model.divergenceOf(definition.instruction, source) == 0) {
      auto constant = flow.valueOf(definition.instruction, source).constantValue();
      if (constant && *constant == 0 && (masks || divides)) return false;
      if (divides && o == site.firstOperand + 1) return false;  // A uniform divided by the word.
      continue;
    }
    if (loaded) return false;
    loaded = o;
  }
  return loaded && loadedPerThread(context, flow, model, definition.instruction, module.operands[*loaded], depth + 1);
}

// A comparison of a word each thread loads for itself with a bound the same for all threads.
bool comparesLoadedWord(const RuleContext& context, flow::FunctionFlow& flow, flow::ThreadModel& model,
                        std::uint32_t branch) {
  auto comparison = comparisonOf(context, flow, branch);
  if (!comparison) return false;
  const Module& module = context.module;
  const InstructionOperand& left = module.operands[comparison->left];
  const InstructionOperand& right = module.operands[comparison->right];
  if (model.divergenceOf(comparison->instruction, right) == 0) {
    return loadedPerThread(context, flow, model, comparison->instruction, left);
  }
  if (model.divergenceOf(comparison->instruction, left) == 0) {
    return loadedPerThread(context, flow, model, comparison->instruction, right);
  }
  return false;
}

// The latch of a counted loop `for (i = start; i < bound; i += step)` whose start depends on
// the thread while bound and step do not (a block- or grid-stride loop): two threads of the
// block whose starts differ by other than a multiple of the step run different numbers of
// iterations for almost every bound. Only bounds that are not constants count (a constant
// bound would rest on the block shape the model assumes).
bool strideLoopSplits(const RuleContext& context, flow::FunctionFlow& flow, flow::ThreadModel& model,
                      std::uint32_t latchBlock) {
  const Module& module = context.module;
  const std::vector<flow::BasicBlock>& blocks = flow.blocks();
  std::uint32_t branch = blocks[latchBlock].end - 1;
  const InstructionSite& branchSite = module.instructions[branch];
  auto comparison = comparisonOf(context, flow, branch);
  if (!comparison || blocks[latchBlock].successors.size() != 2) return false;
  // The loop whose back edge this branch takes.
  const flow::NaturalLoop* loop = nullptr;
  for (const flow::NaturalLoop& l : model.naturalLoops()) {
    if (l.latch == latchBlock) loop = &l;
  }
  if (loop == nullptr) return false;
  // Which way the branch goes back: a taken branch jumps to its target block.
  std::uint32_t target = blocks[latchBlock].successors[0] == latchBlock + 1 ? blocks[latchBlock].successors[1]
                                                                           : blocks[latchBlock].successors[0];
  bool takenLoops = target == loop->head;
  bool holdsLoops = takenLoops != branchSite.guardNegated;  // The comparison holding stays in the loop.
  Modifier relation = comparison->relation;
  bool less = relation == Modifier::Lt || relation == Modifier::Lo;
  bool greaterEqual = relation == Modifier::Ge || relation == Modifier::Hs;
  // i < bound stays in the loop (or i >= bound leaves it), i on the left.
  if (!((less && holdsLoops) || (greaterEqual && !holdsLoops))) return false;
  const InstructionOperand& induction = module.operands[comparison->left];
  const InstructionOperand& bound = module.operands[comparison->right];
  if (model.divergenceOf(comparison->instruction, bound) != 0) return false;
  if (flow.valueOf(comparison->instruction, bound).constantValue()) return false;
  // i's one definition here: i = i + step, in the loop, from i's value on entry and itself.
  auto reg = flow.registerOf(induction);
  if (!reg) return false;
  auto definitions = flow.reachingDefinitions(comparison->instruction, *reg);
  if (definitions.size() != 1) return false;
  std::uint32_t add = flow.definitions()[definitions[0]].instruction;
  const InstructionSite& addSite = module.instructions[add];
  if (!module.factsOf(addSite).is(Family::Add) || addSite.operandCount != 3 || flow.guardRegisterOf(addSite) ||
      !loop->body[flow.blockOf(add)]) {
    return false;
  }
  const InstructionOperand& previous = module.operands[addSite.firstOperand + 1];
  const InstructionOperand& step = module.operands[addSite.firstOperand + 2];
  auto previousReg = flow.registerOf(previous);
  if (!previousReg || !(*previousReg == *reg) || model.divergenceOf(add, step) != 0) return false;
  auto carried = flow.reachingDefinitions(add, *previousReg);
  if (carried.size() != 2) return false;
  bool fromItself = false, fromOutside = false;
  for (std::uint32_t d : carried) {
    std::uint32_t at = flow.definitions()[d].instruction;
    if (at == add) fromItself = true;
    else if (!loop->body[flow.blockOf(at)]) fromOutside = true;
  }
  if (!fromItself || !fromOutside) return false;
  // Two threads of the block whose starts differ by other than a multiple of the step, under
  // both seeds.
  std::uint32_t xs = std::min<std::uint32_t>(model.launch().ntid[0], 64);
  for (std::uint64_t seed : kSeeds) {
    flow::ThreadCoordinates first;
    auto stride = model.evaluate(add, step, first, seed);
    auto start = model.evaluateOnEntry(add, previous, first, seed);
    if (!stride || *stride == 0 || !start) return false;
    bool differs = false;
    for (std::uint32_t x = 1; x < xs && !differs; ++x) {
      flow::ThreadCoordinates thread;
      thread.tid = {x, 0, 0};
      auto other = model.evaluateOnEntry(add, previous, thread, seed);
      if (!other) return false;
      std::uint64_t distance = *other > *start ? *other - *start : *start - *other;
      differs = distance % *stride != 0;
    }
    if (!differs) return false;
  }
  return true;
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
    // What each branch block contributes, whatever the barrier: decided once per function,
    // since every barrier asks about every branch (a kernel of thousands of guarded blocks
    // and barriers took seconds when each barrier decided them again).
    // Where a branch's paths go is read from the CFG first; whether its condition splits the
    // threads (evaluating concrete threads, the costly part) only for a branch placed to
    // matter to a barrier: a kernel whose thread-dependent branches all lie away from its
    // barriers never runs the search.
    enum class Split : std::uint8_t { No, Threads, Data, Stride };
    struct BranchFacts {
      bool placed = false;
      std::uint32_t join = 0;
      // Per successor: the blocks it reaches before the paths meet, and whether the threads
      // taking it (when it skips the barrier) do anything but exit.
      std::vector<std::vector<bool>> sides;
      std::vector<std::int8_t> sideWorks;  // -1 until asked.
      bool decided = false;
      Split split = Split::No;
    };
    std::vector<BranchFacts> branches(blocks.size());
    auto placementOf = [&](std::uint32_t b) -> BranchFacts& {
      BranchFacts& facts = branches[b];
      if (facts.placed) return facts;
      facts.placed = true;
      facts.join = model.immediatePostDominator(b);
      for (std::uint32_t s : blocks[b].successors) facts.sides.push_back(reachable(s, facts.join < blocks.size() ? facts.join : UINT32_MAX));
      facts.sideWorks.assign(blocks[b].successors.size(), -1);
      return facts;
    };
    auto splitOf = [&](std::uint32_t b) {
      BranchFacts& facts = branches[b];
      if (facts.decided) return facts.split;
      facts.decided = true;
      if (model.conditionSplitsThreads(b)) {
        facts.split = Split::Threads;
      } else if (comparesLoadedWord(context, flow, model, blocks[b].end - 1)) {
        facts.split = Split::Data;
      } else if (strideLoopSplits(context, flow, model, b)) {
        facts.split = Split::Stride;
      }
      return facts.split;
    };
    // Whether the threads taking successor k of branch b do anything but exit.
    auto sideWorks = [&](std::uint32_t b, std::size_t k) {
      BranchFacts& facts = branches[b];
      if (facts.sideWorks[k] < 0) {
        bool works = false;
        std::vector<bool> onward = reachable(blocks[b].successors[k], b);
        for (std::uint32_t c = 0; c < blocks.size() && !works; ++c) {
          if (!onward[c]) continue;
          for (std::uint32_t i = blocks[c].first; i < blocks[c].end; ++i) {
            if (!module.factsOf(i).does(kBranch | kReturn | kExit)) works = true;
          }
        }
        facts.sideWorks[k] = works ? 1 : 0;
      }
      return facts.sideWorks[k] == 1;
    };
    // Per block: the blocks reachable from it (asked for barrier blocks).
    std::unordered_map<std::uint32_t, std::vector<bool>> fromBlock;
    for (std::uint32_t barrier : barriers) {
      std::uint32_t block = flow.blockOf(barrier);
      const InstructionSite& site = module.instructions[barrier];
      // A guard that depends on the thread splits the CTA at the barrier itself.
      std::optional<std::uint32_t> culprit;
      bool byData = false, byStride = false;  // How the culprit branch was shown to split.
      if (auto guard = flow.guardRegisterOf(site)) {
        if (model.divergenceOf(barrier, *guard) & flow::kVariesInCta) culprit = barrier;
      }
      for (std::uint32_t b = 0; b < blocks.size() && !culprit; ++b) {
        if ((model.branchDivergence(b) & flow::kVariesInCta) == 0 || blocks[b].successors.size() < 2) continue;
        BranchFacts& facts = placementOf(b);
        if (facts.join == block) continue;
        // Which sides of the branch reach the barrier before the paths meet.
        bool anyReaches = false, allReach = true;
        for (const std::vector<bool>& side : facts.sides) {
          anyReaches = anyReaches || side[block];
          allReach = allReach && side[block];
        }
        if (!anyReaches) continue;
        bool placed = false;
        if (allReach) {
          // Both sides reach it: a loop whose trip count depends on the thread, when the
          // branch is inside that loop with the barrier.
          auto [from, added] = fromBlock.try_emplace(block);
          if (added) from->second = reachable(block, UINT32_MAX);
          placed = from->second[b];
        } else {
          // One side skips the barrier: fine only if the threads taking it do nothing but
          // exit (`if (i >= n) return;`), since a barrier does not wait for exited threads.
          for (std::size_t k = 0; k < facts.sides.size() && !placed; ++k) {
            if (facts.sides[k][block]) continue;
            placed = sideWorks(b, k);
          }
        }
        if (!placed) continue;
        Split split = splitOf(b);
        if (split == Split::No) continue;
        culprit = blocks[b].end - 1;
        byData = split == Split::Data;
        byStride = split == Split::Stride;
      }
      if (!culprit) continue;
      const InstructionSite& branch = module.instructions[*culprit];
      std::string where =
          *culprit == barrier
              ? "its guard depends on the thread"
          : byData ? "the branch here compares a word each thread loads from its own address, so for some input "
                     "threads take different ways, and those that take the other way do not reach it"
          : byStride
              ? "the loop's trip count depends on the thread (its start does, and its bound is not known to be a "
                "multiple of its step), and threads that leave it early do not reach the barrier again"
              : "the branch here depends on the thread, and threads that take the other way do not reach it";
      context.report("SNC001", site.statement,
                   concat({"barrier in divergent code: only some threads of the CTA may reach this '",
                           context.textOf(site.opcode), "': ", where}));
      context.out.back().related.push_back({branch.statement, "the thread-dependent branch"});
    }
  }
}

}  // namespace ptx

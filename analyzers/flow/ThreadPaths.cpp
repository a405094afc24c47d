// ThreadEvaluator (flow/ThreadEvaluation.h), continued: the paths one thread takes — the
// branch conditions an instruction executes under, whether a branch splits the threads, and
// loops followed iteration by iteration with the values they carry.
#include <array>

#include "flow/ThreadEvaluation.h"

namespace ptx::flow {

// Functions of up to this many blocks keep, per branch, the blocks each of its edges reaches
// (2 bits per block and branch: 16 MB at most).
constexpr std::size_t kEdgeReachCacheBlocks = 8192;

const std::vector<ThreadEvaluator::Edge>& ThreadEvaluator::conditionsOf(std::uint32_t block) {
  if (conditionsBuilt_[block]) return conditions_[block];
  conditionsBuilt_[block] = true;
  const std::vector<BasicBlock>& blocks = flow_.blocks();
  const std::vector<std::uint32_t>& dominators = flow_.immediateDominators();
  std::vector<Edge>& edges = conditions_[block];
  // Each dominating block that ends in a two-way branch and reaches `block` through only one
  // of its edges (without coming back through itself) contributes that edge.
  std::uint32_t d = block;
  for (int hops = 0; hops < 4096 && d < dominators.size() && dominators[d] != d && dominators[d] != kNoDominator;
       ++hops) {
    std::uint32_t dominatorBlock = dominators[d];
    d = dominatorBlock;
    const BasicBlock& branch = blocks[dominatorBlock];
    if (branch.successors.size() != 2) continue;
    const InstructionSite& last = module_.instructions[branch.end - 1];
    if (!module_.factsOf(last).does(kBranch) || !last.isGuarded()) continue;
    // Which blocks each edge of the branch reaches without coming back through the branch:
    // computed once per branch (every block under it asks), unless the function is so large
    // that keeping the sets would cost more memory than searching again.
    bool viaTaken = false, viaFallThrough = false;
    if (blocks.size() <= kEdgeReachCacheBlocks) {
      const std::array<std::vector<bool>, 2>& reach = reachableThroughEdges(dominatorBlock);
      viaTaken = reach[0][block];
      viaFallThrough = reach[1][block];
    } else {
      auto reaches = [&](std::uint32_t start) {
        std::vector<bool> visited(blocks.size(), false);
        std::vector<std::uint32_t> pending{start};
        while (!pending.empty()) {
          std::uint32_t c = pending.back();
          pending.pop_back();
          if (c == block) return true;
          if (c == dominatorBlock || visited[c]) continue;
          visited[c] = true;
          for (std::uint32_t next : blocks[c].successors) pending.push_back(next);
        }
        return false;
      };
      viaTaken = reaches(branch.successors[0]);
      viaFallThrough = reaches(branch.successors[1]);
    }
    if (viaTaken != viaFallThrough) edges.push_back({dominatorBlock, viaTaken});
  }
  return edges;
}

const std::array<std::vector<bool>, 2>& ThreadEvaluator::reachableThroughEdges(std::uint32_t branchBlock) {
  auto [it, inserted] = edgeReach_.try_emplace(branchBlock);
  if (!inserted) return it->second;
  const std::vector<BasicBlock>& blocks = flow_.blocks();
  const BasicBlock& branch = blocks[branchBlock];
  for (std::size_t k = 0; k < 2; ++k) {
    std::vector<bool>& seen = it->second[k];
    seen.assign(blocks.size(), false);
    std::vector<std::uint32_t> pending{branch.successors[k]};
    while (!pending.empty()) {
      std::uint32_t c = pending.back();
      pending.pop_back();
      if (seen[c]) continue;
      seen[c] = true;  // The branch block itself is marked when reached, but not gone through.
      if (c == branchBlock) continue;
      for (std::uint32_t next : blocks[c].successors) pending.push_back(next);
    }
  }
  return it->second;
}

std::optional<bool> ThreadEvaluator::branchTaken(std::uint32_t block, const ThreadCoordinates& thread,
                                                 std::uint64_t seed) {
  const BasicBlock& branch = flow_.blocks()[block];
  std::uint32_t index = branch.end - 1;
  const InstructionSite& last = module_.instructions[index];
  SitePlan* plan = guardPlan(index);
  std::optional<InstructionOperand> guard = plan != nullptr ? plan->guardOperand : flow_.guardRegisterOf(last);
  if (!guard) return std::nullopt;
  auto value = plan != nullptr && plan->guard != nullptr ? evaluateRead(index, *plan->guard, thread, seed, 0)
                                                          : evaluateOperand(index, *guard, thread, seed, 0);
  if (!value) return std::nullopt;
  bool holds = (*value & 1) != 0;
  return last.guardNegated ? !holds : holds;
}

std::optional<bool> ThreadEvaluator::executes(std::uint32_t instruction, const ThreadCoordinates& thread,
                                              std::uint64_t seed, std::uint8_t divergence) {
  std::uint32_t block = flow_.blockOf(instruction);
  useContext(thread, seed);
  BlockReach& reach = blockReach_[block];
  if (reach.stamp != stamp_ || reach.divergence != divergence) {
    reach.stamp = stamp_;
    reach.divergence = divergence;
    reach.reached = true;
    for (const Edge& edge : conditionsOf(block)) {
      if ((divergence_.ofBranch(edge.branchBlock) & divergence) == 0) continue;
      auto taken = branchTaken(edge.branchBlock, thread, seed);
      if (!taken) {
        reach.reached = std::nullopt;
        break;
      }
      if (*taken != edge.taken) {
        reach.reached = false;
        break;
      }
    }
  }
  if (!reach.reached) return std::nullopt;
  if (!*reach.reached) return false;
  const InstructionSite& site = module_.instructions[instruction];
  if (!site.isGuarded()) return true;
  SitePlan* plan = guardPlan(instruction);
  std::optional<InstructionOperand> guard = plan != nullptr ? plan->guardOperand : flow_.guardRegisterOf(site);
  if (guard) {
    std::uint8_t guardDivergence = plan != nullptr ? plan->guardDivergence : divergence_.ofRead(instruction, *guard);
    if ((guardDivergence & divergence) != 0) {
      auto value = plan != nullptr && plan->guard != nullptr ? evaluateRead(instruction, *plan->guard, thread, seed, 0)
                                                              : evaluateOperand(instruction, *guard, thread, seed, 0);
      if (!value) return std::nullopt;
      bool holds = (*value & 1) != 0;
      if (site.guardNegated ? holds : !holds) return false;
    }
  }
  return true;
}

// A branch whose condition reads thread-dependent values may still go the same way for every
// thread: `a < aEnd` where both carry the same %tid.x (the tiled matrix multiply's loop over
// tiles). Evaluated for the threads of a small block on the loop's first iteration, under two
// seeds, such a condition comes out the same for all of them; one that splits them shows two
// threads going different ways. The divergence analysis keeps every thread-dependent branch
// as varying (a path condition is then evaluated per thread, which is right either way); the
// barrier rule reports only branches shown to split.
bool ThreadEvaluator::conditionSplitsThreads(std::uint32_t block) {
  if (splits_[block] >= 0) return splits_[block] == 1;
  // Every thread-dependent branch of the function is decided at once, thread by thread, so
  // that the memo of one thread's values serves all of their conditions (the barrier rule asks
  // about each of them in turn); each is decided exactly as it would be alone.
  const std::vector<BasicBlock>& blocks = flow_.blocks();
  std::vector<std::uint32_t> pending;
  for (std::uint32_t b = 0; b < blocks.size(); ++b) {
    if (splits_[b] >= 0 || blocks[b].successors.size() < 2) continue;
    if (b == block || (divergence_.ofBranch(b) & kVariesInCta) != 0) pending.push_back(b);
  }
  firstIteration_ = true;
  newContext();
  // The threads of the smallest blocks kernels are written for: 128 along x, 8 along y, 2
  // along z (a kernel built for 256-thread blocks may loop `(511 - tid) / 256` times, the same
  // for all of its threads, which threads beyond its block would not be).
  std::vector<std::array<std::uint32_t, 3>> threads;
  for (std::uint32_t x = 0; x < 128; ++x) threads.push_back({x, 0, 0});
  for (std::uint32_t y = 1; y < 8; ++y) {
    threads.push_back({0, y, 0});
    threads.push_back({1, y, 0});
  }
  threads.push_back({0, 0, 1});
  // Split under both seeds: two threads known to go different ways. A condition that does
  // not split under the first seed is not tried under the second.
  struct Search {
    bool seen[2] = {false, false};
    std::size_t unknown = 0;
    bool done = false;
  };
  for (std::uint64_t seed : {0x4242ull, 0x1717ull}) {
    std::vector<Search> searches(pending.size());
    std::size_t open = pending.size();
    for (std::size_t t = 0; t < threads.size() && open > 0; ++t) {
      ThreadCoordinates thread;
      thread.tid = threads[t];
      for (std::size_t k = 0; k < pending.size(); ++k) {
        Search& search = searches[k];
        if (search.done) continue;
        if (auto taken = branchTaken(pending[k], thread, seed)) {
          search.seen[*taken ? 1 : 0] = true;
        } else if (++search.unknown == 8 && !search.seen[0] && !search.seen[1]) {
          search.done = true;  // The condition rests on something the model cannot evaluate: no proof.
        }
        if (search.seen[0] && search.seen[1]) search.done = true;
        if (search.done) --open;
      }
    }
    std::vector<std::uint32_t> splitting;
    for (std::size_t k = 0; k < pending.size(); ++k) {
      if (searches[k].seen[0] && searches[k].seen[1]) splitting.push_back(pending[k]);
      else splits_[pending[k]] = 0;
    }
    pending = std::move(splitting);
  }
  for (std::uint32_t b : pending) splits_[b] = 1;
  firstIteration_ = false;
  newContext();
  return splits_[block] == 1;
}

std::optional<std::uint64_t> ThreadEvaluator::evaluateOnEntry(std::uint32_t instruction,
                                                              const InstructionOperand& operand,
                                                              const ThreadCoordinates& thread, std::uint64_t seed) {
  firstIteration_ = true;
  newContext();
  auto value = evaluateOperand(instruction, operand, thread, seed, 0);
  firstIteration_ = false;
  newContext();
  return value;
}

std::optional<std::uint32_t> ThreadEvaluator::carriedDefinition(std::uint32_t instruction,
                                                                const std::vector<std::uint32_t>& reaching,
                                                                bool& ambiguous) {
  // The one definition in the loop among those reaching the read, from before the loop the
  // others; it must reach the read only around the back edge (through the head), not within
  // one iteration (a value chosen by a branch in the body).
  const NaturalLoop& loop = *iterationLoop_;
  const std::vector<BasicBlock>& blocks = flow_.blocks();
  std::optional<std::uint32_t> inside;
  bool outside = false;
  for (std::uint32_t d : reaching) {
    std::uint32_t at = flow_.definitions()[d].instruction;
    if (!loop.body[flow_.blockOf(at)]) {
      outside = true;
      continue;
    }
    if (inside) {
      ambiguous = true;
      return std::nullopt;
    }
    inside = d;
  }
  if (!inside) return std::nullopt;  // Another loop's value, or a branch's before this loop.
  if (!outside) {
    ambiguous = true;
    return std::nullopt;
  }
  std::uint32_t readBlock = flow_.blockOf(instruction);
  std::uint32_t at = flow_.definitions()[*inside].instruction;
  std::uint32_t defBlock = flow_.blockOf(at);
  if (defBlock == readBlock && at < instruction) {
    ambiguous = true;
    return std::nullopt;
  }
  if (readBlock != loop.head) {
    // Within the body, without passing the head.
    std::vector<bool> seen(blocks.size(), false);
    std::vector<std::uint32_t> pending;
    for (std::uint32_t s : blocks[defBlock].successors) pending.push_back(s);
    while (!pending.empty()) {
      std::uint32_t b = pending.back();
      pending.pop_back();
      if (b >= blocks.size() || seen[b] || !loop.body[b] || b == loop.head) continue;
      if (b == readBlock) {
        ambiguous = true;
        return std::nullopt;
      }
      seen[b] = true;
      for (std::uint32_t s : blocks[b].successors) pending.push_back(s);
    }
  }
  return inside;
}

const std::vector<std::uint32_t>& ThreadEvaluator::carriedCandidates(const NaturalLoop& loop) {
  auto it = carriedCandidates_.find(&loop);
  if (it != carriedCandidates_.end()) return it->second;
  // A value the loop carries merges a definition from before the loop with one in it
  // (carriedDefinition): only registers defined on both sides can be carried.
  const std::vector<Definition>& definitions = flow_.definitions();
  std::unordered_map<std::uint64_t, std::uint8_t> sides;  // Register -> 1 inside, 2 outside.
  auto keyOf = [](const RegisterKey& reg) { return (std::uint64_t{reg.symbol} << 32) | reg.index; };
  for (const Definition& d : definitions) {
    sides[keyOf(d.reg)] |= static_cast<std::uint8_t>(loop.body[flow_.blockOf(d.instruction)] ? 1 : 2);
  }
  std::vector<std::uint32_t> candidates;
  for (std::uint32_t d = 0; d < definitions.size(); ++d) {
    if (loop.body[flow_.blockOf(definitions[d].instruction)] && sides[keyOf(definitions[d].reg)] == 3) {
      candidates.push_back(d);
    }
  }
  return carriedCandidates_.emplace(&loop, std::move(candidates)).first->second;
}

template <typename OnIteration>
bool ThreadEvaluator::forIterations(const NaturalLoop& loop, int last, const ThreadCoordinates& thread,
                                    std::uint64_t seed, OnIteration onIteration) {
  const std::vector<BasicBlock>& blocks = flow_.blocks();
  std::uint32_t size = 0;
  for (std::uint32_t b = 0; b < blocks.size(); ++b) {
    if (loop.body[b]) size += blocks[b].end - blocks[b].first;
  }
  if (size > 256) return false;
  const std::vector<std::uint32_t>& candidates = carriedCandidates(loop);
  firstIteration_ = true;
  iterationLoop_ = &loop;
  iteration_ = 0;
  newContext();
  carried_.clear();
  for (int step = 0;; ++step) {
    onIteration(step);
    if (step == last) break;
    // What the loop's definitions leave after this iteration.
    std::unordered_map<std::uint32_t, std::optional<std::uint64_t>> next;
    for (std::uint32_t d : candidates) next[d] = evaluateDefinition(d, thread, seed, 0);
    carried_ = std::move(next);
    iteration_ = step + 1;
    newContext();
  }
  firstIteration_ = false;
  iterationLoop_ = nullptr;
  iteration_ = 0;
  newContext();
  return true;
}

std::vector<std::vector<IterationAccess>> ThreadEvaluator::accessesInIterations(
    const NaturalLoop& loop, int last, const std::vector<std::pair<std::uint32_t, const InstructionOperand*>>& accesses,
    const ThreadCoordinates& thread, std::uint64_t seed, std::uint8_t divergence) {
  std::vector<std::vector<IterationAccess>> result(static_cast<std::size_t>(last) + 1,
                                                   std::vector<IterationAccess>(accesses.size()));
  forIterations(loop, last, thread, seed, [&](int iteration) {
    std::vector<IterationAccess>& here = result[static_cast<std::size_t>(iteration)];
    for (std::size_t k = 0; k < accesses.size(); ++k) {
      auto runs = executes(accesses[k].first, thread, seed, divergence);
      if (!runs) continue;
      if (!*runs) {
        here[k].state = 0;
        continue;
      }
      if (auto address = evaluateAddress(accesses[k].first, *accesses[k].second, thread, seed)) {
        here[k] = {1, *address};
      }
    }
  });
  return result;
}

std::optional<bool> ThreadEvaluator::branchTakenInIteration(const NaturalLoop& loop, int iteration,
                                                            std::uint32_t block, const ThreadCoordinates& thread,
                                                            std::uint64_t seed) {
  std::optional<bool> taken;
  forIterations(loop, iteration, thread, seed, [&](int step) {
    if (step == iteration) taken = branchTaken(block, thread, seed);
  });
  return taken;
}

}  // namespace ptx::flow

#include "flow/BarrierIntervals.h"

namespace ptx::flow {

BarrierIntervals::BarrierIntervals(std::string_view text, const Module& module, FunctionFlow& flow,
                                   Divergence& divergence, ThreadEvaluator& evaluator)
    : text_(text), module_(module), flow_(flow), divergence_(divergence), evaluator_(evaluator) {
  const FunctionInfo& function = module_.functions[flow_.functionIndex()];
  first_ = function.firstInstruction;
  end_ = function.firstInstruction + function.instructionCount;
}

BarrierKind BarrierIntervals::barrierKindOf(std::uint32_t instruction) const {
  const InstructionSite& site = module_.instructions[instruction];
  if (site.isCall) return BarrierKind::Cta;  // The callee may synchronize.
  const InstructionFacts& facts = module_.factsOf(site);
  switch (facts.family) {
    case Family::Bar:
    case Family::Barrier:
      // bar.sync, bar.arrive, bar.red, barrier.cluster.*: all order.
      return facts.has(Modifier::Warp) ? BarrierKind::Warp : BarrierKind::Cta;
    // Waiting on an mbarrier (or arriving on one) is how producer and consumer threads
    // order their accesses; so are acquire and release operations and fences. The model
    // counts them as barriers: it cannot tell which thread waits for which.
    case Family::Mbarrier:
    case Family::Fence:
    case Family::Membar:
    case Family::Griddepcontrol:
      return BarrierKind::Cta;
    default:
      break;
  }
  if (facts.hasAny({Modifier::Acquire, Modifier::Release, Modifier::AcqRel})) return BarrierKind::Cta;
  return BarrierKind::None;
}

bool BarrierIntervals::cuts(std::uint32_t instruction, BarrierKind barrier, BarrierKind kind) const {
  if (kind == BarrierKind::Cluster) return ordersCluster(instruction);
  return barrier != BarrierKind::None && (kind == BarrierKind::Warp || barrier == BarrierKind::Cta);
}

bool BarrierIntervals::ordersCluster(std::uint32_t instruction) const {
  if (barrierKindOf(instruction) != BarrierKind::Cta) return false;
  const InstructionSite& site = module_.instructions[instruction];
  const InstructionFacts& facts = module_.factsOf(site);
  if (site.isCall || !(facts.is(Family::Bar) || facts.is(Family::Barrier))) return true;
  return facts.has(Modifier::Cluster);  // bar.sync, barrier.sync, bar.red, bar.arrive: this CTA only.
}

std::optional<std::uint32_t> BarrierIntervals::countedBarrierId(std::uint32_t instruction) const {
  const InstructionSite& site = module_.instructions[instruction];
  const InstructionFacts& facts = module_.factsOf(site);
  if (!(facts.is(Family::Bar) || facts.is(Family::Barrier)) || site.isCall) return std::nullopt;
  if (facts.hasAny({Modifier::Warp, Modifier::Cluster})) return std::nullopt;
  bool reduction = facts.has(Modifier::Red);
  // bar{.sync,.arrive} a, b / bar.red.op d, a, b, c: the count is there when the operands are all.
  std::uint32_t idOperand = reduction ? 1 : 0;
  if (site.operandCount != (reduction ? 4u : 2u)) return std::nullopt;
  const InstructionOperand& id = module_.operands[site.firstOperand + idOperand];
  if (id.shape != OperandShape::IntegerLiteral) return kUnknownBarrierId;
  std::uint64_t value = 0;
  for (std::uint32_t at = id.range.begin; at < id.range.end; ++at) {
    char c = text_[at];
    if (c < '0' || c > '9') return kUnknownBarrierId;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return value < 63 ? static_cast<std::uint32_t>(value) : kUnknownBarrierId;
}

std::vector<std::vector<std::uint32_t>> BarrierIntervals::intervals(const std::vector<std::uint32_t>& instructions,
                                                                    BarrierKind kind, bool countedBarriersCut) {
  const std::vector<BasicBlock>& blocks = flow_.blocks();
  std::uint32_t count = end_ - first_;
  if (barrierKinds_.empty()) {
    barrierKinds_.resize(count);
    for (std::uint32_t i = first_; i < end_; ++i) barrierKinds_[i - first_] = barrierKindOf(i);
  }
  std::vector<bool> counted;
  if (!countedBarriersCut) {
    counted.resize(count);
    for (std::uint32_t i = first_; i < end_; ++i) counted[i - first_] = countedBarrierId(i).has_value();
  }
  auto stops = [&](std::uint32_t instruction) {
    if (!countedBarriersCut && counted[instruction - first_]) return false;
    return cuts(instruction, barrierKinds_[instruction - first_], kind);
  };
  constexpr std::uint32_t kNoSlot = UINT32_MAX;
  std::vector<std::uint32_t> slot(count, kNoSlot);
  for (std::size_t k = 0; k < instructions.size(); ++k) slot[instructions[k] - first_] = static_cast<std::uint32_t>(k);
  std::vector<std::vector<std::uint32_t>> result(instructions.size());
  std::vector<std::uint32_t> starts{first_};
  for (std::uint32_t i = first_; i < end_; ++i) {
    if (stops(i) && i + 1 < end_) starts.push_back(i + 1);
  }
  std::vector<std::uint32_t> seen(blocks.size(), UINT32_MAX);
  for (std::uint32_t interval = 0; interval < starts.size(); ++interval) {
    // Walk from the start to the end of its block, then through successors, up to barriers.
    auto walk = [&](std::uint32_t from, std::uint32_t blockEnd) {
      for (std::uint32_t i = from; i < blockEnd; ++i) {
        if (std::uint32_t k = slot[i - first_]; k != kNoSlot) {
          auto& list = result[k];
          if (list.empty() || list.back() != interval) list.push_back(interval);
        }
        if (stops(i)) return false;
      }
      return true;
    };
    std::uint32_t startBlock = flow_.blockOf(starts[interval]);
    std::vector<std::uint32_t> pending;
    if (walk(starts[interval], blocks[startBlock].end)) pushFeasibleSuccessors(startBlock, pending);
    while (!pending.empty()) {
      std::uint32_t b = pending.back();
      pending.pop_back();
      if (seen[b] == interval) continue;
      seen[b] = interval;
      if (walk(blocks[b].first, blocks[b].end)) pushFeasibleSuccessors(b, pending);
    }
  }
  return result;
}

bool BarrierIntervals::reachableWithout(std::uint32_t from, std::uint32_t to, BarrierKind kind) {
  const std::vector<BasicBlock>& blocks = flow_.blocks();
  auto stops = [&](std::uint32_t instruction) {
    return kind != BarrierKind::None && cuts(instruction, barrierKindOf(instruction), kind);  // None: program order.
  };
  // From the instruction after `from` to the end of its block.
  std::uint32_t fromBlock = flow_.blockOf(from);
  std::uint32_t toBlock = flow_.blockOf(to);
  for (std::uint32_t i = from + 1; i < blocks[fromBlock].end; ++i) {
    if (i == to) return true;
    if (stops(i)) return false;
  }
  std::vector<bool> visited(blocks.size(), false);
  std::vector<std::uint32_t> pending;
  pushFeasibleSuccessors(fromBlock, pending);
  while (!pending.empty()) {
    std::uint32_t b = pending.back();
    pending.pop_back();
    if (visited[b]) continue;
    visited[b] = true;
    bool blocked = false;
    for (std::uint32_t i = blocks[b].first; i < blocks[b].end; ++i) {
      if (b == toBlock && i == to) return true;
      if (stops(i)) {
        blocked = true;
        break;
      }
    }
    if (blocked) continue;
    pushFeasibleSuccessors(b, pending);
  }
  return false;
}

void BarrierIntervals::pushFeasibleSuccessors(std::uint32_t block, std::vector<std::uint32_t>& into) {
  const BasicBlock& b = flow_.blocks()[block];
  if (b.successors.size() == 2 && divergence_.ofBranch(block) == 0) {
    // A branch every thread takes alike, whose condition comes out the same whatever the
    // uniform inputs (a loop over the block's own size is entered): only that edge.
    std::optional<bool> agreed;
    bool decided = true;
    for (std::uint64_t seed : {0x3141ull, 0x2718ull}) {
      auto taken = evaluator_.branchTaken(block, ThreadCoordinates{}, seed);
      if (!taken || (agreed && *agreed != *taken)) decided = false;
      agreed = taken;
    }
    if (decided && agreed) {
      into.push_back(b.successors[*agreed ? 0 : 1]);
      return;
    }
  }
  for (std::uint32_t s : b.successors) into.push_back(s);
}

}  // namespace ptx::flow

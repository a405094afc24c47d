#include "flow/ThreadModel.h"

#include <algorithm>
#include <charconv>

namespace ptx::flow {
namespace {

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A value that is the same for every thread, drawn from the seed and what identifies it:
// 256-byte aligned and between 2^16 and 2^20, like the sizes and offsets real code computes
// with, so that products and sums of a few of them stay far from wrapping around 32 bits (an
// unsigned comparison of two wrapped sums would split threads that never split).
std::uint64_t uniformValue(std::uint64_t identity, std::uint64_t seed) {
  return ((mix(identity ^ mix(seed)) & 0xFFFull) + 0x100) << 8;
}

std::uint64_t truncate(std::uint64_t value, unsigned bits) {
  return bits >= 64 ? value : value & ((std::uint64_t{1} << bits) - 1);
}

std::int64_t signExtend(std::uint64_t value, unsigned bits) {
  if (bits >= 64) return static_cast<std::int64_t>(value);
  std::uint64_t sign = std::uint64_t{1} << (bits - 1);
  value = truncate(value, bits);
  return static_cast<std::int64_t>((value ^ sign) - sign);
}

std::optional<unsigned> typeBits(std::string_view type) {
  if (type == ".pred") return 1;
  auto size = typeSizeInBytes(type);
  if (!size) return std::nullopt;
  return *size * 8;
}

constexpr int kMaxDepth = 48;

}  // namespace

ThreadModel::ThreadModel(std::string_view text, const Module& module, FunctionFlow& flow)
    : text_(text), module_(module), flow_(flow) {
  const FunctionInfo& function = module_.functions[flow_.functionIndex()];
  first_ = function.firstInstruction;
  computeLaunch();
  for (std::uint32_t i = first_; i < first_ + function.instructionCount; ++i) {
    const InstructionSite& site = module_.instructions[i];
    for (std::uint32_t o = site.firstOperand; o < site.firstOperand + site.operandCount; ++o) {
      const InstructionOperand& operand = module_.operands[o];
      if (operand.shape != OperandShape::SpecialRegister) continue;
      std::string_view name = textOf(operand.range);
      if (name.starts_with("%tid") || name.starts_with("%laneid") || name.starts_with("%warpid")) {
        readsThreadCoordinates_ = true;
      }
      if (name == "%ctaid.x" || name == "%ctaid") ctaDimensionsRead_ |= 1;
      if (name == "%ctaid.y") ctaDimensionsRead_ |= 2;
      if (name == "%ctaid.z") ctaDimensionsRead_ |= 4;
      if (name.starts_with("%ctaid") || name.starts_with("%nctaid") || name.starts_with("%cluster_ctarank") ||
          name.starts_with("%clusterid")) {
        readsCtaCoordinates_ = true;
      }
    }
  }
  computePostDominators();
  memoStamp_.assign(flow_.definitions().size(), 0);
  memo_.assign(flow_.definitions().size(), std::nullopt);
  computeDivergence();
  conditions_.resize(flow_.blocks().size());
  shapes_.resize(function.instructionCount);
  splits_.assign(flow_.blocks().size(), -1);
  conditionsBuilt_.assign(flow_.blocks().size(), false);
}

void ThreadModel::computeLaunch() {
  const FunctionInfo& function = module_.functions[flow_.functionIndex()];
  // Without a declared shape, a kernel that indexes by %tid.x but never reads %ntid.x often
  // assumes a block width of its own (a 16 x 16 tile): only 16 threads along x are sure to
  // exist then, and one along y and z unless the kernel reads %tid.y or %tid.z.
  bool readsWidth = false, readsY = false, readsZ = false;
  for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
    const InstructionSite& site = module_.instructions[i];
    for (std::uint32_t o = site.firstOperand; o < site.firstOperand + site.operandCount; ++o) {
      const InstructionOperand& operand = module_.operands[o];
      if (operand.shape != OperandShape::SpecialRegister) continue;
      std::string_view name = textOf(operand.range);
      readsWidth = readsWidth || name == "%ntid.x" || name == "%ntid";
      readsY = readsY || name == "%tid.y";
      readsZ = readsZ || name == "%tid.z";
    }
  }
  // A two-dimensional block indexed as a tile is often 8 wide (8 x 8 DCT blocks).
  launch_.ntid = {readsWidth ? 64u : (readsY ? 8u : 16u), readsY ? 2u : 1u, readsZ ? 2u : 1u};
  for (const auto& directive : function.directives) {
    if (directive.name != ".reqnctapercluster" || directive.values.empty()) continue;
    for (std::size_t d = 0; d < 3; ++d) {
      std::uint64_t value = d < directive.values.size() ? directive.values[d] : 1;
      launch_.cluster[d] = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(value, 1, 16));
    }
  }
  for (std::string_view name : {".reqntid", ".maxntid"}) {
    for (const HeaderDirective& directive : function.directives) {
      if (directive.name != name || directive.values.empty()) continue;
      for (std::size_t d = 0; d < 3; ++d) {
        std::uint64_t value = d < directive.values.size() ? directive.values[d] : 1;
        launch_.ntid[d] = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(value, 1, 1024));
      }
      launch_.declared = true;
      return;
    }
  }
}

BarrierKind ThreadModel::barrierKindOf(std::uint32_t instruction) const {
  const InstructionSite& site = module_.instructions[instruction];
  if (site.isCall) return BarrierKind::Cta;  // The callee may synchronize.
  std::string_view opcode = textOf(site.opcode);
  if (opcode == "bar" || opcode == "barrier") {
    for (std::uint32_t m = site.firstModifier; m < site.firstModifier + site.modifierCount; ++m) {
      if (textOf(module_.modifiers[m]) == ".warp") return BarrierKind::Warp;
    }
    return BarrierKind::Cta;  // bar.sync, bar.arrive, bar.red, barrier.cluster.*: all order.
  }
  // Waiting on an mbarrier (or arriving on one) is how producer and consumer threads
  // order their accesses; so are acquire and release operations and fences. The model
  // counts them as barriers: it cannot tell which thread waits for which.
  if (opcode == "mbarrier" || opcode == "fence" || opcode == "membar" || opcode == "griddepcontrol") {
    return BarrierKind::Cta;
  }
  for (std::uint32_t m = site.firstModifier; m < site.firstModifier + site.modifierCount; ++m) {
    std::string_view modifier = textOf(module_.modifiers[m]);
    if (modifier == ".acquire" || modifier == ".release" || modifier == ".acq_rel") return BarrierKind::Cta;
  }
  return BarrierKind::None;
}

void ThreadModel::computePostDominators() {
  const std::vector<BasicBlock>& blocks = flow_.blocks();
  auto n = static_cast<std::uint32_t>(blocks.size());
  std::uint32_t exit = n;
  // Reverse post-order of the reverse CFG, from the virtual exit: its predecessors are the
  // blocks without successors, and blocks that reach no such block (endless loops) too.
  std::vector<std::vector<std::uint32_t>> reverseSuccessors(n + 1);  // Successors in the reverse CFG.
  std::vector<bool> reachesExit(n, false);
  std::vector<std::uint32_t> pending;
  for (std::uint32_t b = 0; b < n; ++b) {
    if (blocks[b].successors.empty()) {
      reverseSuccessors[exit].push_back(b);
      reachesExit[b] = true;
      pending.push_back(b);
    }
    for (std::uint32_t s : blocks[b].successors) reverseSuccessors[s].push_back(b);
  }
  while (!pending.empty()) {
    std::uint32_t b = pending.back();
    pending.pop_back();
    for (std::uint32_t p : blocks[b].predecessors) {
      if (!reachesExit[p]) {
        reachesExit[p] = true;
        pending.push_back(p);
      }
    }
  }
  for (std::uint32_t b = 0; b < n; ++b) {
    if (!reachesExit[b]) reverseSuccessors[exit].push_back(b);
  }
  std::vector<std::uint32_t> order;  // Post-order of the reverse CFG.
  std::vector<std::uint8_t> state(n + 1, 0);
  std::vector<std::pair<std::uint32_t, std::size_t>> stack{{exit, 0}};
  state[exit] = 1;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < reverseSuccessors[node].size()) {
      std::uint32_t s = reverseSuccessors[node][next++];
      if (state[s] == 0) {
        state[s] = 1;
        stack.push_back({s, 0});
      }
    } else {
      order.push_back(node);
      stack.pop_back();
    }
  }
  std::vector<std::uint32_t> position(n + 1, 0);
  for (std::uint32_t k = 0; k < order.size(); ++k) position[order[k]] = k;
  constexpr std::uint32_t kUndefined = UINT32_MAX;
  std::vector<std::uint32_t> ipdom(n + 1, kUndefined);
  ipdom[exit] = exit;
  auto intersect = [&](std::uint32_t a, std::uint32_t b) {
    while (a != b) {
      while (position[a] < position[b]) a = ipdom[a];
      while (position[b] < position[a]) b = ipdom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t k = order.size(); k-- > 0;) {
      std::uint32_t b = order[k];
      if (b == exit) continue;
      // Its predecessors in the reverse CFG are its successors (and the exit).
      std::uint32_t candidate = kUndefined;
      auto consider = [&](std::uint32_t p) {
        if (ipdom[p] == kUndefined) return;
        candidate = candidate == kUndefined ? p : intersect(p, candidate);
      };
      for (std::uint32_t s : blocks[b].successors) consider(s);
      if (blocks[b].successors.empty() || !reachesExit[b]) consider(exit);
      if (candidate != kUndefined && ipdom[b] != candidate) {
        ipdom[b] = candidate;
        changed = true;
      }
    }
  }
  postDominator_.assign(n, exit);
  for (std::uint32_t b = 0; b < n; ++b) postDominator_[b] = ipdom[b] == kUndefined ? exit : ipdom[b];

  // Dominators (forward), for path conditions.
  std::vector<std::uint32_t> forwardOrder;
  std::vector<std::uint8_t> seen(n, 0);
  if (n > 0) {
    std::vector<std::pair<std::uint32_t, std::size_t>> dfs{{0, 0}};
    seen[0] = 1;
    while (!dfs.empty()) {
      auto& [node, next] = dfs.back();
      if (next < blocks[node].successors.size()) {
        std::uint32_t s = blocks[node].successors[next++];
        if (!seen[s]) {
          seen[s] = 1;
          dfs.push_back({s, 0});
        }
      } else {
        forwardOrder.push_back(node);
        dfs.pop_back();
      }
    }
  }
  std::vector<std::uint32_t> forwardPosition(n, 0);
  for (std::uint32_t k = 0; k < forwardOrder.size(); ++k) forwardPosition[forwardOrder[k]] = k;
  dominator_.assign(n, kUndefined);
  if (n > 0) dominator_[0] = 0;
  auto intersectForward = [&](std::uint32_t a, std::uint32_t b) {
    while (a != b) {
      while (forwardPosition[a] < forwardPosition[b]) a = dominator_[a];
      while (forwardPosition[b] < forwardPosition[a]) b = dominator_[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t k = forwardOrder.size(); k-- > 0;) {
      std::uint32_t b = forwardOrder[k];
      if (b == 0) continue;
      std::uint32_t candidate = kUndefined;
      for (std::uint32_t p : blocks[b].predecessors) {
        if (dominator_[p] == kUndefined) continue;
        candidate = candidate == kUndefined ? p : intersectForward(p, candidate);
      }
      if (candidate != kUndefined && dominator_[b] != candidate) {
        dominator_[b] = candidate;
        changed = true;
      }
    }
  }
}

std::uint8_t ThreadModel::readDivergence(std::uint32_t instruction, const InstructionOperand& operand) {
  if (operand.shape == OperandShape::SpecialRegister) {
    std::string_view name = textOf(operand.range);
    if (name.starts_with("%warpid")) return kVariesInCta;
    if (name.starts_with("%tid") || name.starts_with("%laneid") || name.starts_with("%lanemask") ||
        name.starts_with("%clock") || name.starts_with("%globaltimer") || name.starts_with("%pm")) {
      return kVariesInCta | kVariesInWarp;
    }
    if (name.starts_with("%ctaid") || name.starts_with("%cluster_ctarank") || name.starts_with("%clusterid") ||
        name.starts_with("%cluster_ctaid") || name.starts_with("%smid") || name.starts_with("%nsmid") ||
        name.starts_with("%gridid")) {
      return kVariesAcrossCtas;
    }
    return 0;  // %ntid, %nctaid, %cluster_nctaid, %dynamic_smem_size...
  }
  std::uint8_t divergence = 0;
  auto registerDivergence = [&](const InstructionOperand& element) {
    auto key = flow_.registerOf(element);
    if (!key) return;
    std::vector<std::uint32_t> reaching = flow_.reachingDefinitions(instruction, *key);
    std::uint8_t merged = 0;
    for (std::uint32_t d : reaching) merged |= definitionDivergence_[d];
    divergence |= merged;
    if (reaching.size() >= 2) {
      // A choice made under a divergent branch: the definitions' blocks depend on a branch
      // the reading block does not depend on.
      std::uint32_t readBlock = flow_.blockOf(instruction);
      for (std::uint32_t d : reaching) {
        std::uint32_t defBlock = flow_.blockOf(flow_.definitions()[d].instruction);
        divergence |= static_cast<std::uint8_t>(blockDivergence_[defBlock] & ~blockDivergence_[readBlock]);
        const InstructionSite& definer = module_.instructions[flow_.definitions()[d].instruction];
        if (auto guard = flow_.guardRegisterOf(definer))
          divergence |= readDivergence(flow_.definitions()[d].instruction, *guard);
      }
    }
  };
  switch (operand.shape) {
    case OperandShape::Register:
      registerDivergence(operand);
      break;
    case OperandShape::Vector:
    case OperandShape::PredicatePair:
      for (std::uint32_t e = 0; e < operand.elementCount; ++e)
        registerDivergence(module_.operands[operand.firstElement + e]);
      break;
    case OperandShape::NegatedPredicate: {
      InstructionOperand reg = operand;
      reg.shape = OperandShape::Register;
      std::string_view spelled = textOf(operand.range);
      std::size_t start = spelled.find_first_not_of("! \t");
      if (start != std::string_view::npos) reg.range.begin += static_cast<std::uint32_t>(start);
      registerDivergence(reg);
      break;
    }
    case OperandShape::Address:
      if (auto base = flow_.baseRegisterOf(operand)) registerDivergence(*base);
      break;
    default:
      break;
  }
  return divergence;
}

std::uint8_t ThreadModel::definitionDivergence(std::uint32_t definition) {
  const Definition& def = flow_.definitions()[definition];
  const InstructionSite& site = module_.instructions[def.instruction];
  if (site.isCall) return 0;  // Nothing known: no evidence that it varies.
  std::string_view opcode = textOf(site.opcode);
  // Results that differ per thread whatever the operands.
  // A vote's or reduction's result is the same for the lanes of a warp.
  if (opcode == "vote" || opcode == "redux" || opcode == "activemask") return kVariesInCta | kVariesAcrossCtas;
  if (opcode == "atom" || opcode == "shfl" || opcode == "match" || opcode == "elect" || opcode == "mbarrier") {
    return kVariesInCta | kVariesInWarp | kVariesAcrossCtas;
  }
  std::uint8_t divergence = 0;
  for (std::uint32_t o = site.firstOperand; o < site.firstOperand + site.operandCount; ++o) {
    if (o == def.operand) continue;
    const InstructionOperand& operand = module_.operands[o];
    // The destination vector's elements are written, not read.
    if (o == site.firstOperand && operand.shape == OperandShape::Vector && opcode != "st") {
      bool holdsDefinition =
          def.operand >= operand.firstElement && def.operand < operand.firstElement + operand.elementCount;
      if (holdsDefinition || opcode == "ld" || opcode == "ldu" || opcode == "tex") continue;
    }
    divergence |= readDivergence(def.instruction, operand);
  }
  if (auto guard = flow_.guardRegisterOf(site)) divergence |= readDivergence(def.instruction, *guard);
  return divergence;
}

void ThreadModel::computeDivergence() {
  const std::vector<BasicBlock>& blocks = flow_.blocks();
  definitionDivergence_.assign(flow_.definitions().size(), 0);
  branchDivergence_.assign(blocks.size(), 0);
  blockDivergence_.assign(blocks.size(), 0);
  // Both grow monotonically; iterate to the fixpoint.
  for (int round = 0; round < 64; ++round) {
    bool changed = false;
    for (std::uint32_t d = 0; d < flow_.definitions().size(); ++d) {
      std::uint8_t divergence = definitionDivergence(d);
      if ((divergence | definitionDivergence_[d]) != definitionDivergence_[d]) {
        definitionDivergence_[d] |= divergence;
        changed = true;
      }
    }
    for (std::uint32_t b = 0; b < blocks.size(); ++b) {
      if (blocks[b].successors.size() < 2) continue;
      const InstructionSite& last = module_.instructions[blocks[b].end - 1];
      std::uint8_t divergence = 0;
      if (auto guard = flow_.guardRegisterOf(last)) divergence = readDivergence(blocks[b].end - 1, *guard);
      if (textOf(last.opcode) == "brx") {
        for (std::uint32_t o = last.firstOperand; o < last.firstOperand + last.operandCount; ++o) {
          divergence |= readDivergence(blocks[b].end - 1, module_.operands[o]);
        }
      }
      if ((divergence | branchDivergence_[b]) == branchDivergence_[b]) continue;
      branchDivergence_[b] |= divergence;
      changed = true;
      // The blocks between the branch and its post-dominator depend on it.
      std::uint32_t stop = postDominator_[b];
      std::vector<std::uint32_t> pending(blocks[b].successors.begin(), blocks[b].successors.end());
      std::vector<bool> visited(blocks.size(), false);
      while (!pending.empty()) {
        std::uint32_t c = pending.back();
        pending.pop_back();
        if (c == stop || visited[c]) continue;
        visited[c] = true;
        blockDivergence_[c] |= branchDivergence_[b];
        for (std::uint32_t s : blocks[c].successors) pending.push_back(s);
      }
    }
    if (!changed) break;
  }
}

bool ThreadModel::dominates(std::uint32_t a, std::uint32_t b) const {
  for (int hops = 0; hops < 1 << 16; ++hops) {
    if (b == a) return true;
    if (b >= dominator_.size() || dominator_[b] == b || dominator_[b] == UINT32_MAX) return false;
    b = dominator_[b];
  }
  return false;
}

// A branch whose condition reads thread-dependent values may still go the same way for every
// thread: `a < aEnd` where both carry the same %tid.x (the tiled matrix multiply's loop over
// tiles). Evaluated for the threads of a small block on the loop's first iteration, under two
// seeds, such a condition comes out the same for all of them; one that splits them shows two
// threads going different ways. The divergence analysis keeps every thread-dependent branch
// as varying (a path condition is then evaluated per thread, which is right either way); the
// barrier rule reports only branches shown to split.
const std::vector<NaturalLoop>& ThreadModel::naturalLoops() {
  if (loops_) return *loops_;
  loops_.emplace();
  const std::vector<BasicBlock>& blocks = flow_.blocks();
  for (std::uint32_t latch = 0; latch < blocks.size(); ++latch) {
    for (std::uint32_t head : blocks[latch].successors) {
      if (!dominates(head, latch)) continue;
      NaturalLoop loop{head, latch, std::vector<bool>(blocks.size(), false)};
      loop.body[head] = true;
      std::vector<std::uint32_t> pending{latch};
      while (!pending.empty()) {
        std::uint32_t b = pending.back();
        pending.pop_back();
        if (loop.body[b]) continue;
        loop.body[b] = true;
        for (std::uint32_t p : blocks[b].predecessors) pending.push_back(p);
      }
      loops_->push_back(std::move(loop));
    }
  }
  return *loops_;
}

bool ThreadModel::definedInLoop(const NaturalLoop& loop, std::uint32_t instruction, RegisterKey reg) {
  for (std::uint32_t d : flow_.reachingDefinitions(instruction, reg)) {
    if (loop.body[flow_.blockOf(flow_.definitions()[d].instruction)]) return true;
  }
  return false;
}

bool ThreadModel::conditionSplitsThreads(std::uint32_t block) {
  if (splits_[block] >= 0) return splits_[block] == 1;
  firstIteration_ = true;
  ++stamp_;
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
  // Split under both seeds: two threads known to go different ways.
  bool splits = true;
  for (std::uint64_t seed : {0x4242ull, 0x1717ull}) {
    bool seen[2] = {false, false};
    std::size_t unknown = 0;
    for (const auto& tid : threads) {
      ThreadCoordinates thread;
      thread.tid = tid;
      if (auto taken = branchTaken(block, thread, seed)) {
        seen[*taken ? 1 : 0] = true;
      } else if (++unknown == 8 && !seen[0] && !seen[1]) {
        break;  // The condition rests on something the model cannot evaluate: no proof.
      }
      if (seen[0] && seen[1]) break;
    }
    splits = splits && seen[0] && seen[1];
    if (!splits) break;  // Both seeds must split; the second need not be tried.
  }
  firstIteration_ = false;
  ++stamp_;
  splits_[block] = splits ? 1 : 0;
  return splits;
}

std::optional<std::uint64_t> ThreadModel::evaluateOnEntry(std::uint32_t instruction, const InstructionOperand& operand,
                                                          const ThreadCoordinates& thread, std::uint64_t seed) {
  firstIteration_ = true;
  ++stamp_;
  auto value = evaluateOperand(instruction, operand, thread, seed, 0);
  firstIteration_ = false;
  ++stamp_;
  return value;
}

std::optional<std::uint32_t> ThreadModel::carriedDefinition(std::uint32_t instruction,
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

const std::vector<std::uint32_t>& ThreadModel::carriedCandidates(const NaturalLoop& loop) {
  auto it = carriedCandidates_.find(&loop);
  if (it != carriedCandidates_.end()) return it->second;
  // A value the loop carries merges a definition from before the loop with one in it
  // (carriedDefinition): only registers defined on both sides can be carried.
  const std::vector<Definition>& definitions = flow_.definitions();
  std::unordered_map<std::uint64_t, std::uint8_t> sides;  // Register -> 1 inside, 2 outside.
  auto keyOf = [](const RegisterKey& reg) { return (std::uint64_t{reg.symbol} << 32) | reg.index; };
  for (const Definition& d : definitions) {
    sides[keyOf(d.reg)] |= loop.body[flow_.blockOf(d.instruction)] ? 1 : 2;
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
bool ThreadModel::forIterations(const NaturalLoop& loop, int last, const ThreadCoordinates& thread,
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
  ++stamp_;
  carried_.clear();
  for (int step = 0;; ++step) {
    onIteration(step);
    if (step == last) break;
    // What the loop's definitions leave after this iteration.
    std::unordered_map<std::uint32_t, std::optional<std::uint64_t>> next;
    for (std::uint32_t d : candidates) next[d] = evaluateDefinition(d, thread, seed, 0);
    carried_ = std::move(next);
    iteration_ = step + 1;
    ++stamp_;
  }
  firstIteration_ = false;
  iterationLoop_ = nullptr;
  iteration_ = 0;
  ++stamp_;
  return true;
}

std::vector<std::vector<ThreadModel::IterationAccess>> ThreadModel::accessesInIterations(
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

std::optional<bool> ThreadModel::branchTakenInIteration(const NaturalLoop& loop, int iteration, std::uint32_t block,
                                                        const ThreadCoordinates& thread, std::uint64_t seed) {
  std::optional<bool> taken;
  forIterations(loop, iteration, thread, seed, [&](int step) {
    if (step == iteration) taken = branchTaken(block, thread, seed);
  });
  return taken;
}

std::uint8_t ThreadModel::divergenceOf(std::uint32_t instruction, const InstructionOperand& operand) {
  return readDivergence(instruction, operand);
}

const std::vector<ThreadModel::Edge>& ThreadModel::conditionsOf(std::uint32_t block) {
  if (conditionsBuilt_[block]) return conditions_[block];
  conditionsBuilt_[block] = true;
  const std::vector<BasicBlock>& blocks = flow_.blocks();
  std::vector<Edge>& edges = conditions_[block];
  // Each dominating block that ends in a two-way branch and reaches `block` through only one
  // of its edges (without coming back through itself) contributes that edge.
  std::uint32_t d = block;
  for (int hops = 0; hops < 4096 && d < dominator_.size() && dominator_[d] != d && dominator_[d] != UINT32_MAX;
       ++hops) {
    std::uint32_t dominatorBlock = dominator_[d];
    d = dominatorBlock;
    const BasicBlock& branch = blocks[dominatorBlock];
    if (branch.successors.size() != 2) continue;
    const InstructionSite& last = module_.instructions[branch.end - 1];
    if (textOf(last.opcode) != "bra" || !last.isGuarded()) continue;
    auto reaches = [&](std::uint32_t start) {
      if (start == block) return true;
      std::vector<bool> visited(blocks.size(), false);
      std::vector<std::uint32_t> pending{start};
      while (!pending.empty()) {
        std::uint32_t c = pending.back();
        pending.pop_back();
        if (c == block) return true;
        if (c == dominatorBlock || visited[c]) continue;
        visited[c] = true;
        for (std::uint32_t s : blocks[c].successors) pending.push_back(s);
      }
      return false;
    };
    bool viaTaken = reaches(branch.successors[0]);
    bool viaFallThrough = reaches(branch.successors[1]);
    if (viaTaken != viaFallThrough) edges.push_back({dominatorBlock, viaTaken});
  }
  return edges;
}

std::optional<bool> ThreadModel::branchTaken(std::uint32_t block, const ThreadCoordinates& thread, std::uint64_t seed) {
  const BasicBlock& branch = flow_.blocks()[block];
  std::uint32_t index = branch.end - 1;
  const InstructionSite& last = module_.instructions[index];
  auto guard = flow_.guardRegisterOf(last);
  if (!guard) return std::nullopt;
  auto value = evaluateOperand(index, *guard, thread, seed, 0);
  if (!value) return std::nullopt;
  bool holds = (*value & 1) != 0;
  return last.guardNegated ? !holds : holds;
}

std::optional<bool> ThreadModel::executes(std::uint32_t instruction, const ThreadCoordinates& thread,
                                          std::uint64_t seed, std::uint8_t divergence) {
  std::uint32_t block = flow_.blockOf(instruction);
  for (const Edge& edge : conditionsOf(block)) {
    if ((branchDivergence_[edge.branchBlock] & divergence) == 0) continue;
    auto taken = branchTaken(edge.branchBlock, thread, seed);
    if (!taken) return std::nullopt;
    if (*taken != edge.taken) return false;
  }
  const InstructionSite& site = module_.instructions[instruction];
  if (auto guard = flow_.guardRegisterOf(site)) {
    if ((readDivergence(instruction, *guard) & divergence) != 0) {
      auto value = evaluateOperand(instruction, *guard, thread, seed, 0);
      if (!value) return std::nullopt;
      bool holds = (*value & 1) != 0;
      if (site.guardNegated ? holds : !holds) return false;
    }
  }
  return true;
}

std::optional<std::uint64_t> ThreadModel::evaluate(std::uint32_t instruction, const InstructionOperand& operand,
                                                   const ThreadCoordinates& thread, std::uint64_t seed) {
  return evaluateOperand(instruction, operand, thread, seed, 0);
}

namespace {

std::uint64_t hashText(std::uint64_t h, std::string_view text) {
  for (char c : text) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return mix(h);
}

// Tags that keep stand-ins of different kinds apart.
constexpr std::uint64_t kExactTerm = 0xE1;
constexpr std::uint64_t kLoadTerm = 0x10AD;
constexpr std::uint64_t kOperationTerm = 0x0B;

}  // namespace

std::optional<std::uint64_t> ThreadModel::valueTerm(std::uint32_t instruction, const InstructionOperand& operand,
                                                    const ThreadCoordinates& thread, std::uint64_t seed) {
  std::unordered_map<std::uint32_t, std::optional<std::uint64_t>> memo;
  return termOfOperand(instruction, operand, thread, seed, 0, memo);
}

std::optional<std::uint64_t> ThreadModel::termOfOperand(
    std::uint32_t instruction, const InstructionOperand& operand, const ThreadCoordinates& thread, std::uint64_t seed,
    int depth, std::unordered_map<std::uint32_t, std::optional<std::uint64_t>>& memo) {
  if (depth > kMaxDepth) return std::nullopt;
  if (operand.shape == OperandShape::Register) {
    auto key = flow_.registerOf(operand);
    if (!key) return std::nullopt;
    const std::vector<std::uint32_t>& reaching = reachingAt(instruction, *key);
    if (reaching.size() == 1) return termOfDefinition(reaching[0], thread, seed, depth + 1, memo);
  }
  if (operand.shape == OperandShape::Vector) {
    std::uint64_t h = mix(0x7EC ^ operand.elementCount);
    for (std::uint32_t e = 0; e < operand.elementCount; ++e) {
      auto element = termOfOperand(instruction, module_.operands[operand.firstElement + e], thread, seed, depth + 1, memo);
      if (!element) return std::nullopt;
      h = mix(h ^ *element);
    }
    return h;
  }
  if (operand.shape == OperandShape::FloatLiteral) return hashText(kExactTerm, textOf(operand.range));
  auto exact = evaluateOperand(instruction, operand, thread, seed, depth + 1);
  if (!exact) return std::nullopt;
  return mix(kExactTerm ^ mix(*exact));
}

std::optional<std::uint64_t> ThreadModel::termOfDefinition(
    std::uint32_t definition, const ThreadCoordinates& thread, std::uint64_t seed, int depth,
    std::unordered_map<std::uint32_t, std::optional<std::uint64_t>>& memo) {
  if (depth > kMaxDepth) return std::nullopt;
  if (auto it = memo.find(definition); it != memo.end()) return it->second;
  memo[definition] = std::nullopt;  // A cycle through this definition is unknown.
  auto finish = [&](std::optional<std::uint64_t> term) {
    memo[definition] = term;
    return term;
  };
  if (auto exact = evaluateDefinition(definition, thread, seed, depth + 1)) return finish(mix(kExactTerm ^ mix(*exact)));
  const Definition& def = flow_.definitions()[definition];
  const InstructionSite& site = module_.instructions[def.instruction];
  if (site.isCall || site.operandCount == 0) return finish(std::nullopt);
  const Shape& shape = shapeOf(def.instruction);
  std::string_view opcode = shape.opcode;
  if (auto guard = flow_.guardRegisterOf(site)) {
    auto holds = evaluateOperand(def.instruction, *guard, thread, seed, depth + 1);
    if (!holds) return finish(std::nullopt);
    if (((*holds & 1) != 0) == site.guardNegated) {
      // The guard fails: the register keeps what reached the instruction.
      const std::vector<std::uint32_t>& before = reachingAt(def.instruction, def.reg);
      if (before.size() != 1) return finish(std::nullopt);
      return finish(termOfDefinition(before[0], thread, seed, depth + 1, memo));
    }
  }
  const InstructionOperand& destination = module_.operands[site.firstOperand];
  bool grouped = destination.shape == OperandShape::Vector || destination.shape == OperandShape::PredicatePair;
  std::uint32_t element = grouped && def.operand >= destination.firstElement
                              ? def.operand - destination.firstElement
                              : def.operand - site.firstOperand;
  if (opcode == "ld" || opcode == "ldu") {
    if (site.operandCount < 2) return finish(std::nullopt);
    // The word's memory: shared memory is the CTA's, local memory the thread's; a generic
    // address may be either, and is left unknown.
    std::uint64_t memory = 0;
    bool known = false;
    for (std::uint32_t m = site.firstModifier; m < site.firstModifier + site.modifierCount; ++m) {
      std::string_view modifier = textOf(module_.modifiers[m]);
      if (modifier == ".global" || modifier == ".const" || modifier == ".param") known = true;
      if (modifier.starts_with(".shared")) {
        known = true;
        memory = mix((std::uint64_t{thread.ctaid[0]} << 42) ^ (std::uint64_t{thread.ctaid[1]} << 21) ^ thread.ctaid[2]);
      }
    }
    if (!known) return finish(std::nullopt);
    auto address = evaluateAddress(def.instruction, module_.operands[site.firstOperand + 1], thread, seed);
    if (!address) return finish(std::nullopt);
    return finish(mix(kLoadTerm ^ mix(memory ^ mix(*address ^ (std::uint64_t{element} << 56)))));
  }
  // Results that come from other threads or from memory the model does not follow.
  if (opcode == "atom" || opcode == "shfl" || opcode == "vote" || opcode == "match" || opcode == "redux" ||
      opcode == "activemask" || opcode == "tex" || opcode == "tld4" || opcode == "suld" || opcode == "mma" ||
      opcode == "wgmma" || opcode == "ldmatrix" || opcode == "movmatrix" || opcode == "bar" || opcode == "barrier" ||
      opcode == "mbarrier" || opcode == "cp" || opcode == "clock" || opcode == "clock64" || opcode == "globaltimer" ||
      opcode == "addc" || opcode == "subc" || opcode == "madc" || opcode == "elect" || opcode == "wmma" ||
      opcode == "tcgen05" || opcode == "txq" || opcode == "suq" || opcode == "istypep") {
    return finish(std::nullopt);
  }
  std::uint64_t h = hashText(kOperationTerm, opcode);
  for (std::uint32_t m = site.firstModifier; m < site.firstModifier + site.modifierCount; ++m) {
    h = hashText(h, textOf(module_.modifiers[m]));
  }
  h = mix(h ^ element);
  for (std::uint32_t o = site.firstOperand + 1; o < site.firstOperand + site.operandCount; ++o) {
    const InstructionOperand& source = module_.operands[o];
    if (source.shape == OperandShape::Address || source.shape == OperandShape::Sink ||
        source.shape == OperandShape::PredicatePair) {
      return finish(std::nullopt);
    }
    auto term = termOfOperand(def.instruction, source, thread, seed, depth + 1, memo);
    if (!term) return finish(std::nullopt);
    h = mix(h ^ *term);
  }
  return finish(h);
}

std::optional<std::uint64_t> ThreadModel::evaluateAddress(std::uint32_t instruction, const InstructionOperand& address,
                                                          const ThreadCoordinates& thread, std::uint64_t seed) {
  if (address.shape != OperandShape::Address) return std::nullopt;
  std::uint64_t value = 0;
  if (auto base = flow_.baseRegisterOf(address)) {
    auto baseValue = evaluateOperand(instruction, *base, thread, seed, 0);
    if (!baseValue) return std::nullopt;
    value = *baseValue;
  } else if (address.symbol != kNoSymbol) {
    value = uniformValue(0x5100000000ull + address.symbol, seed);
  } else {
    return std::nullopt;  // `[0x100]` and the like: not a variable the model places.
  }
  if (address.offset.end > address.offset.begin) {
    InstructionOperand offsetOperand;
    offsetOperand.shape = OperandShape::Expression;
    offsetOperand.range = address.offset;
    AbstractValue offset = flow_.valueOf(instruction, offsetOperand);
    auto constant = offset.constantValue();
    if (!constant) return std::nullopt;
    value += *constant;
  }
  return value;
}

std::optional<std::uint64_t> ThreadModel::evaluateOperand(std::uint32_t instruction, const InstructionOperand& operand,
                                                          const ThreadCoordinates& thread, std::uint64_t seed,
                                                          int depth) {
  if (depth > kMaxDepth) return std::nullopt;
  switch (operand.shape) {
    case OperandShape::Register:
      if (auto key = flow_.registerOf(operand)) return evaluateRegister(instruction, *key, thread, seed, depth);
      return std::nullopt;
    case OperandShape::NegatedPredicate: {
      InstructionOperand reg = operand;
      reg.shape = OperandShape::Register;
      std::string_view spelled = textOf(operand.range);
      std::size_t start = spelled.find_first_not_of("! \t");
      if (start != std::string_view::npos) reg.range.begin += static_cast<std::uint32_t>(start);
      auto value = evaluateOperand(instruction, reg, thread, seed, depth + 1);
      if (!value) return std::nullopt;
      return (*value & 1) ^ 1;
    }
    case OperandShape::SpecialRegister: {
      std::string_view name = textOf(operand.range);
      auto component = [&](std::string_view prefix) -> std::optional<std::size_t> {
        if (!name.starts_with(prefix)) return std::nullopt;
        std::string_view rest = name.substr(prefix.size());
        if (rest == ".x" || rest.empty()) return 0;
        if (rest == ".y") return 1;
        if (rest == ".z") return 2;
        return std::nullopt;
      };
      std::uint64_t linear = thread.tid[0] + launch_.ntid[0] * (thread.tid[1] + launch_.ntid[1] * thread.tid[2]);
      if (name == "%laneid") return linear % 32;
      if (name == "%warpid") return linear / 32;
      if (auto c = component("%tid")) return thread.tid[*c];
      if (auto c = component("%ntid")) return launch_.ntid[*c];
      if (auto c = component("%ctaid")) return thread.ctaid[*c];
      if (auto c = component("%nctaid")) return launch_.nctaid[*c];
      const auto& cluster = launch_.cluster;
      if (auto c = component("%cluster_ctaid")) return thread.ctaid[*c] % cluster[*c];
      if (auto c = component("%cluster_nctaid")) return cluster[*c];
      if (auto c = component("%clusterid")) return thread.ctaid[*c] / cluster[*c];
      if (name == "%cluster_ctarank") {
        return thread.ctaid[0] % cluster[0] +
               cluster[0] * (thread.ctaid[1] % cluster[1] + cluster[1] * (thread.ctaid[2] % cluster[2]));
      }
      if (name == "%cluster_nctarank") return cluster[0] * cluster[1] * cluster[2];
      if (name == "WARP_SZ") return 32;
      return std::nullopt;
    }
    case OperandShape::Symbol:
    case OperandShape::IntegerLiteral:
    case OperandShape::Expression: {
      if (operand.shape == OperandShape::Symbol && operand.symbol != kNoSymbol) {
        return uniformValue(0x5100000000ull + operand.symbol, seed);
      }
      AbstractValue value = flow_.valueOf(instruction, operand);
      if (auto constant = value.constantValue()) return *constant;
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

std::optional<std::uint64_t> ThreadModel::evaluateRegister(std::uint32_t instruction, RegisterKey reg,
                                                           const ThreadCoordinates& thread, std::uint64_t seed,
                                                           int depth) {
  const std::vector<std::uint32_t>& reaching = reachingAt(instruction, reg);
  if (reaching.size() == 1) return evaluateDefinition(reaching[0], thread, seed, depth + 1);
  // A value chosen among several definitions (a loop counter, a buffer index toggled each
  // iteration) takes few values, which the code relies on (`i ^ 1` picks the other buffer
  // only while i is 0 or 1): a random stand-in would make addresses meet that never do.
  // When asking whether a loop's condition splits the threads, its first iteration is what
  // is evaluated: the definition from before the loop, which dominates the read.
  if (reaching.size() >= 2 && iterationLoop_ != nullptr) {
    // Only the values the loop evaluated carries: its own definition from the previous
    // iteration, or the one definition from before the loop in the first. A value another
    // loop carries, or a branch chooses, is unknown (an outer loop's first iteration need not
    // be one in which this loop runs).
    if (!iterationLoop_->body[flow_.blockOf(instruction)]) return std::nullopt;
    bool ambiguous = false;
    auto carried = carriedDefinition(instruction, reaching, ambiguous);
    if (ambiguous || !carried) return std::nullopt;
    if (iteration_ >= 1) {
      auto it = carried_.find(*carried);
      return it == carried_.end() ? std::nullopt : it->second;
    }
    std::optional<std::uint32_t> entry;
    for (std::uint32_t d : reaching) {
      if (d == *carried) continue;
      if (entry) return std::nullopt;
      entry = d;
    }
    return entry ? evaluateDefinition(*entry, thread, seed, depth + 1) : std::nullopt;
  }
  if (reaching.size() >= 2 && firstIteration_) {
    std::uint32_t readBlock = flow_.blockOf(instruction);
    std::optional<std::uint32_t> entry;
    for (std::uint32_t d : reaching) {
      std::uint32_t defInstruction = flow_.definitions()[d].instruction;
      std::uint32_t defBlock = flow_.blockOf(defInstruction);
      bool reachesFromBefore = defBlock == readBlock ? defInstruction < instruction : dominates(defBlock, readBlock);
      if (reachesFromBefore) {
        if (entry) return std::nullopt;
        entry = d;
      }
    }
    if (entry) return evaluateDefinition(*entry, thread, seed, depth + 1);
    return std::nullopt;
  }
  if (reaching.size() >= 2) return std::nullopt;
  // No definition reaches it: a parameter of a .func, the same for every thread.
  return uniformValue((std::uint64_t{reg.symbol} << 32) ^ reg.index, seed);
}

// The operation of an opcode evaluateDefinition follows, decoded once per instruction: the
// evaluation runs millions of times on a large kernel, and comparing spellings there cost a
// sixth of the whole lint.
ThreadModel::Operation ThreadModel::operationOf(std::string_view opcode) {
  static constexpr std::pair<std::string_view, Operation> kOperations[] = {
      {"add", Operation::Add},
      {"and", Operation::And},
      {"cvt", Operation::Cvt},
      {"cvta", Operation::Cvta},
      {"div", Operation::Div},
      {"ld", Operation::Ld},
      {"ldu", Operation::Ldu},
      {"mad", Operation::Mad},
      {"mad24", Operation::Mad24},
      {"mapa", Operation::Mapa},
      {"max", Operation::Max},
      {"min", Operation::Min},
      {"mov", Operation::Mov},
      {"mul", Operation::Mul},
      {"mul24", Operation::Mul24},
      {"neg", Operation::Neg},
      {"not", Operation::Not},
      {"or", Operation::Or},
      {"rem", Operation::Rem},
      {"selp", Operation::Selp},
      {"setp", Operation::Setp},
      {"shl", Operation::Shl},
      {"shr", Operation::Shr},
      {"sub", Operation::Sub},
      {"xor", Operation::Xor},
  };
  for (const auto& [name, operation] : kOperations) {
    if (name == opcode) return operation;
  }
  return Operation::Other;
}

const ThreadModel::Shape& ThreadModel::shapeOf(std::uint32_t instruction) {
  Shape& shape = shapes_[instruction - first_];
  if (shape.ready) return shape;
  shape.ready = true;
  const InstructionSite& site = module_.instructions[instruction];
  shape.opcode = textOf(site.opcode);
  shape.operation = operationOf(shape.opcode);
  for (std::uint32_t m = site.firstModifier; m < site.firstModifier + site.modifierCount; ++m) {
    std::string_view modifier = textOf(module_.modifiers[m]);
    if (typeBits(modifier)) shape.types.push_back(modifier);
    if (modifier == ".wide") shape.wide = true;
    if (modifier == ".hi") shape.high = true;
    if (modifier == ".eq" || modifier == ".ne" || modifier == ".lt" || modifier == ".le" || modifier == ".gt" ||
        modifier == ".ge" || modifier == ".lo" || modifier == ".ls" || modifier == ".hi" || modifier == ".hs") {
      shape.comparison = modifier;
    }
  }
  shape.bits = shape.types.empty() ? 64 : typeBits(shape.types.front()).value_or(64);
  return shape;
}

const std::vector<std::uint32_t>& ThreadModel::reachingAt(std::uint32_t instruction, RegisterKey reg) {
  std::uint64_t key = (std::uint64_t{instruction} << 32) ^ (std::uint64_t{reg.symbol} << 12) ^ reg.index;
  auto it = reaching_.find(key);
  if (it != reaching_.end() && it->second.first == reg) return it->second.second;
  auto& slot = reaching_[key];
  slot = {reg, flow_.reachingDefinitions(instruction, reg)};
  return slot.second;
}

std::optional<std::uint64_t> ThreadModel::evaluateDefinition(std::uint32_t definition, const ThreadCoordinates& thread,
                                                             std::uint64_t seed, int depth) {
  if (depth > kMaxDepth) return std::nullopt;
  bool sameContext = memoSeed_ == seed && memoThread_.tid == thread.tid && memoThread_.ctaid == thread.ctaid;
  if (!sameContext) {
    ++stamp_;
    memoSeed_ = seed;
    memoThread_ = thread;
  }
  if (memoStamp_[definition] == stamp_) return memo_[definition];
  const Definition& def = flow_.definitions()[definition];
  const InstructionSite& site = module_.instructions[def.instruction];
  auto finish = [&](std::optional<std::uint64_t> value) {
    memoStamp_[definition] = stamp_;
    memo_[definition] = value;
    return value;
  };
  if (site.isCall || def.operand != site.firstOperand) return finish(std::nullopt);
  const Shape& shape = shapeOf(def.instruction);
  Operation operation = shape.operation;
  const std::vector<std::string_view>& types = shape.types;
  std::string_view comparison = shape.comparison;
  bool wide = shape.wide, high = shape.high;
  if (types.empty() && operation != Operation::Mov) return finish(std::nullopt);
  std::string_view type = types.empty() ? std::string_view(".b64") : types.front();
  if (type.starts_with(".f")) return finish(std::nullopt);
  unsigned bits = shape.bits;
  bool isSigned = type.starts_with(".s");
  // A guarded definition keeps the old value when its guard fails.
  if (auto guard = flow_.guardRegisterOf(site)) {
    auto holds = evaluateOperand(def.instruction, *guard, thread, seed, depth + 1);
    if (!holds) return finish(std::nullopt);
    bool executes = ((*holds & 1) != 0) != site.guardNegated;
    if (!executes) {
      return finish(evaluateRegister(def.instruction, def.reg, thread, seed, depth + 1));
    }
  }
  auto source = [&](std::uint32_t k) -> std::optional<std::uint64_t> {
    if (k >= site.operandCount) return std::nullopt;
    return evaluateOperand(def.instruction, module_.operands[site.firstOperand + k], thread, seed, depth + 1);
  };
  auto sourceSigned = [&](std::uint32_t k, unsigned width) -> std::optional<std::int64_t> {
    auto value = source(k);
    if (!value) return std::nullopt;
    return signExtend(*value, width);
  };
  if (operation == Operation::Ld || operation == Operation::Ldu) {
    // A load at an address every thread computes alike reads the same word for all of them
    // (at the same moment): a uniform value. Parameters are read-only, so always.
    bool param = false;
    for (std::uint32_t m = site.firstModifier; m < site.firstModifier + site.modifierCount; ++m) {
      if (textOf(module_.modifiers[m]).starts_with(".param")) param = true;
    }
    if (site.operandCount < 2 || module_.operands[site.firstOperand].shape == OperandShape::Vector) {
      return finish(std::nullopt);
    }
    const InstructionOperand& address = module_.operands[site.firstOperand + 1];
    if (readDivergence(def.instruction, address) != 0) return finish(std::nullopt);
    std::uint64_t identity =
        param ? 0x7000000000ull + address.symbol * 4096ull + address.offset.begin : 0x9000000000ull + def.instruction;
    // Parameters and constant banks hold the same words for every CTA; anything else may not
    // (each CTA has its own shared memory, and global memory changes under the grid).
    bool constant = param;
    for (std::uint32_t m = site.firstModifier; m < site.firstModifier + site.modifierCount; ++m) {
      if (textOf(module_.modifiers[m]) == ".const") constant = true;
    }
    if (!constant) {
      identity ^=
          mix((std::uint64_t{thread.ctaid[0]} << 40) ^ (std::uint64_t{thread.ctaid[1]} << 20) ^ thread.ctaid[2]);
    }
    if (param && address.offset.end > address.offset.begin) identity ^= mix(address.offset.end);
    return finish(truncate(uniformValue(identity, seed), bits));
  }
  std::optional<std::uint64_t> a, b, c;
  if (operation == Operation::Mapa) {
    // The address in the other CTA's shared memory, evaluated as the same offset: which CTA
    // it reaches is the rank operand, which the race search reads itself.
    a = source(1);
    if (!a) return finish(std::nullopt);
    return finish(truncate(*a, bits));
  }
  if (operation == Operation::Mov || operation == Operation::Cvta || operation == Operation::Cvt) {
    a = source(1);
    if (!a) return finish(std::nullopt);
    if (operation == Operation::Cvt && types.size() >= 2) {
      // Integer conversion: the source's width and signedness, then the destination's.
      if (types[1].starts_with(".f")) return finish(std::nullopt);
      unsigned sourceBits = typeBits(types[1]).value_or(64);
      std::uint64_t value = types[1].starts_with(".s") ? static_cast<std::uint64_t>(signExtend(*a, sourceBits))
                                                       : truncate(*a, sourceBits);
      return finish(truncate(value, bits));
    }
    return finish(operation == Operation::Mov ? truncate(*a, bits) : *a);
  }
  if (operation == Operation::Setp) {
    if (site.operandCount != 3 || comparison.empty()) return finish(std::nullopt);
    a = source(1);
    b = source(2);
    if (!a || !b) return finish(std::nullopt);
    bool holds = false;
    if (isSigned) {
      std::int64_t x = signExtend(*a, bits), y = signExtend(*b, bits);
      if (comparison == ".eq")
        holds = x == y;
      else if (comparison == ".ne")
        holds = x != y;
      else if (comparison == ".lt")
        holds = x < y;
      else if (comparison == ".le")
        holds = x <= y;
      else if (comparison == ".gt")
        holds = x > y;
      else if (comparison == ".ge")
        holds = x >= y;
      else
        return finish(std::nullopt);
    } else {
      std::uint64_t x = truncate(*a, bits), y = truncate(*b, bits);
      if (comparison == ".eq")
        holds = x == y;
      else if (comparison == ".ne")
        holds = x != y;
      else if (comparison == ".lt" || comparison == ".lo")
        holds = x < y;
      else if (comparison == ".le" || comparison == ".ls")
        holds = x <= y;
      else if (comparison == ".gt" || comparison == ".hi")
        holds = x > y;
      else if (comparison == ".ge" || comparison == ".hs")
        holds = x >= y;
      else
        return finish(std::nullopt);
    }
    return finish(holds ? 1 : 0);
  }
  if (operation == Operation::Selp) {
    c = source(3);
    if (!c) return finish(std::nullopt);
    return finish((*c & 1) ? source(1) : source(2));
  }
  if (operation == Operation::Not || operation == Operation::Neg) {
    a = source(1);
    if (!a) return finish(std::nullopt);
    return finish(truncate(operation == Operation::Not ? ~*a : (0 - *a), bits));
  }
  a = source(1);
  b = source(2);
  if (!a || !b) return finish(std::nullopt);
  std::uint64_t x = *a, y = *b;
  if (operation == Operation::Add) return finish(truncate(x + y, bits));
  if (operation == Operation::Sub) return finish(truncate(x - y, bits));
  if (operation == Operation::And) return finish(x & y);
  if (operation == Operation::Or) return finish(x | y);
  if (operation == Operation::Xor) return finish(x ^ y);
  if (operation == Operation::Shl) return finish(y >= bits ? 0 : truncate(x << y, bits));
  if (operation == Operation::Shr) {
    if (isSigned) {
      std::int64_t value = signExtend(x, bits);
      return finish(truncate(static_cast<std::uint64_t>(value >> std::min<std::uint64_t>(y, 63)), bits));
    }
    return finish(y >= bits ? 0 : truncate(x, bits) >> y);
  }
  if (operation == Operation::Min || operation == Operation::Max) {
    bool less = isSigned ? signExtend(x, bits) < signExtend(y, bits) : truncate(x, bits) < truncate(y, bits);
    return finish((operation == Operation::Min) == less ? x : y);
  }
  if ((operation == Operation::Mul || operation == Operation::Mad) && high) {
    if (bits > 32) return finish(std::nullopt);
    std::uint64_t product = isSigned ? static_cast<std::uint64_t>(signExtend(x, bits) * signExtend(y, bits))
                                     : truncate(x, bits) * truncate(y, bits);
    std::uint64_t upper = truncate(product >> bits, bits);
    if (operation == Operation::Mad) {
      c = source(3);
      if (!c) return finish(std::nullopt);
      upper = truncate(upper + *c, bits);
    }
    return finish(upper);
  }
  if (operation == Operation::Mul || operation == Operation::Mad || operation == Operation::Mul24 || operation == Operation::Mad24) {
    if (high) return finish(std::nullopt);
    std::uint64_t product;
    if (wide) {
      auto sx =
          isSigned ? sourceSigned(1, bits) : std::optional<std::int64_t>(static_cast<std::int64_t>(truncate(x, bits)));
      auto sy =
          isSigned ? sourceSigned(2, bits) : std::optional<std::int64_t>(static_cast<std::int64_t>(truncate(y, bits)));
      if (!sx || !sy) return finish(std::nullopt);
      product = static_cast<std::uint64_t>(*sx) * static_cast<std::uint64_t>(*sy);
      bits = std::min(64u, bits * 2);
    } else {
      product = x * y;
    }
    if (operation == Operation::Mad || operation == Operation::Mad24) {
      c = source(3);
      if (!c) return finish(std::nullopt);
      product += *c;
    }
    return finish(truncate(product, bits));
  }
  if (operation == Operation::Div || operation == Operation::Rem) {
    if (truncate(y, bits) == 0) return finish(std::nullopt);
    if (isSigned) {
      std::int64_t sx = signExtend(x, bits), sy = signExtend(y, bits);
      return finish(truncate(static_cast<std::uint64_t>(operation == Operation::Div ? sx / sy : sx % sy), bits));
    }
    return finish(operation == Operation::Div ? truncate(x, bits) / truncate(y, bits) : truncate(x, bits) % truncate(y, bits));
  }
  return finish(std::nullopt);
}

bool ThreadModel::cuts(std::uint32_t instruction, BarrierKind barrier, BarrierKind kind) const {
  if (kind == BarrierKind::Cluster) return ordersCluster(instruction);
  return barrier != BarrierKind::None && (kind == BarrierKind::Warp || barrier == BarrierKind::Cta);
}

bool ThreadModel::ordersCluster(std::uint32_t instruction) const {
  if (barrierKindOf(instruction) != BarrierKind::Cta) return false;
  const InstructionSite& site = module_.instructions[instruction];
  std::string_view opcode = textOf(site.opcode);
  if (site.isCall || (opcode != "bar" && opcode != "barrier")) return true;
  for (std::uint32_t m = site.firstModifier; m < site.firstModifier + site.modifierCount; ++m) {
    if (textOf(module_.modifiers[m]) == ".cluster") return true;
  }
  return false;  // bar.sync, barrier.sync, bar.red, bar.arrive: this CTA only.
}

std::optional<std::uint32_t> ThreadModel::countedBarrierId(std::uint32_t instruction) const {
  const InstructionSite& site = module_.instructions[instruction];
  std::string_view opcode = textOf(site.opcode);
  if ((opcode != "bar" && opcode != "barrier") || site.isCall) return std::nullopt;
  bool reduction = false;
  for (std::uint32_t m = site.firstModifier; m < site.firstModifier + site.modifierCount; ++m) {
    std::string_view modifier = textOf(module_.modifiers[m]);
    if (modifier == ".warp" || modifier == ".cluster") return std::nullopt;
    if (modifier == ".red") reduction = true;
  }
  // bar{.sync,.arrive} a, b / bar.red.op d, a, b, c: the count is there when the operands are all.
  std::uint32_t idOperand = reduction ? 1 : 0;
  if (site.operandCount != (reduction ? 4u : 2u)) return std::nullopt;
  const InstructionOperand& id = module_.operands[site.firstOperand + idOperand];
  if (id.shape != OperandShape::IntegerLiteral) return kUnknownBarrierId;
  std::uint64_t value = 0;
  for (char c : textOf(id.range)) {
    if (c < '0' || c > '9') return kUnknownBarrierId;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return value < 63 ? static_cast<std::uint32_t>(value) : kUnknownBarrierId;
}

std::vector<std::vector<std::uint32_t>> ThreadModel::barrierIntervals(const std::vector<std::uint32_t>& instructions,
                                                                      BarrierKind kind, bool countedBarriersCut) {
  const std::vector<BasicBlock>& blocks = flow_.blocks();
  const FunctionInfo& function = module_.functions[flow_.functionIndex()];
  std::uint32_t end = function.firstInstruction + function.instructionCount;
  if (barrierKinds_.empty()) {
    barrierKinds_.resize(function.instructionCount);
    for (std::uint32_t i = first_; i < end; ++i) barrierKinds_[i - first_] = barrierKindOf(i);
  }
  std::vector<bool> counted;
  if (!countedBarriersCut) {
    counted.resize(function.instructionCount);
    for (std::uint32_t i = first_; i < end; ++i) counted[i - first_] = countedBarrierId(i).has_value();
  }
  auto stops = [&](std::uint32_t instruction) {
    if (!countedBarriersCut && counted[instruction - first_]) return false;
    return cuts(instruction, barrierKinds_[instruction - first_], kind);
  };
  constexpr std::uint32_t kNoSlot = UINT32_MAX;
  std::vector<std::uint32_t> slot(function.instructionCount, kNoSlot);
  for (std::size_t k = 0; k < instructions.size(); ++k) slot[instructions[k] - first_] = static_cast<std::uint32_t>(k);
  std::vector<std::vector<std::uint32_t>> intervals(instructions.size());
  std::vector<std::uint32_t> starts{first_};
  for (std::uint32_t i = first_; i < end; ++i) {
    if (stops(i) && i + 1 < end) starts.push_back(i + 1);
  }
  std::vector<std::uint32_t> seen(blocks.size(), UINT32_MAX);
  for (std::uint32_t interval = 0; interval < starts.size(); ++interval) {
    // Walk from the start to the end of its block, then through successors, up to barriers.
    auto walk = [&](std::uint32_t from, std::uint32_t blockEnd) {
      for (std::uint32_t i = from; i < blockEnd; ++i) {
        if (std::uint32_t k = slot[i - first_]; k != kNoSlot) {
          auto& list = intervals[k];
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
  return intervals;
}

bool ThreadModel::reachableWithout(std::uint32_t from, std::uint32_t to, BarrierKind kind) {
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

void ThreadModel::pushFeasibleSuccessors(std::uint32_t block, std::vector<std::uint32_t>& into) {
  const BasicBlock& b = flow_.blocks()[block];
  if (b.successors.size() == 2 && branchDivergence_[block] == 0) {
    // A branch every thread takes alike, whose condition comes out the same whatever the
    // uniform inputs (a loop over the block's own size is entered): only that edge.
    std::optional<bool> agreed;
    bool decided = true;
    for (std::uint64_t seed : {0x3141ull, 0x2718ull}) {
      auto taken = branchTaken(block, ThreadCoordinates{}, seed);
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

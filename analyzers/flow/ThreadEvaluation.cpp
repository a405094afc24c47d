#include "flow/ThreadEvaluation.h"

#include <algorithm>

#include "flow/IntegerOps.h"
#include "flow/ThreadValues.h"

namespace ptx::flow {
namespace {

using thread_values::kMaxDepth;
using thread_values::mix;
using thread_values::uniformValue;

std::uint64_t hashText(std::uint64_t h, std::string_view text) {
  for (char c : text) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return mix(h);
}

// Results that come from other threads or from memory the model does not follow: no term
// stands for them.
bool resultIsOpaque(Family family) {
  switch (family) {
    case Family::Atom: case Family::Shfl: case Family::Vote: case Family::Match: case Family::Redux:
    case Family::Activemask: case Family::Tex: case Family::Tld4: case Family::Suld: case Family::Mma:
    case Family::Wgmma: case Family::Ldmatrix: case Family::Movmatrix: case Family::Bar: case Family::Barrier:
    case Family::Mbarrier: case Family::Cp: case Family::Addc: case Family::Subc: case Family::Madc:
    case Family::Elect: case Family::Wmma: case Family::Tcgen05: case Family::Txq: case Family::Suq:
    case Family::Istypep:
      return true;
    default:
      return false;
  }
}

// Tags that keep stand-ins of different kinds apart.
constexpr std::uint64_t kExactTerm = 0xE1;
constexpr std::uint64_t kLoadTerm = 0x10AD;
constexpr std::uint64_t kOperationTerm = 0x0B;

// Which of a thread's coordinates a special register reads (ThreadEvaluator's kReads* bits:
// %tid.x, %tid.y, %tid.z, the CTA): %laneid and %warpid read the whole index; the block's and
// grid's shapes read none; anything else is taken to read everything.
std::uint8_t coordinatesReadBy(std::string_view name) {
  if (name == "%tid.x") return 1;
  if (name == "%tid.y") return 2;
  if (name == "%tid.z") return 4;
  if (name == "%laneid" || name == "%warpid") return 7;
  if (name.starts_with("%ntid") || name.starts_with("%nctaid") || name.starts_with("%cluster_nctaid") ||
      name == "%cluster_nctarank" || name == "WARP_SZ") {
    return 0;
  }
  return 15;
}

}  // namespace

ThreadEvaluator::ThreadEvaluator(std::string_view text, const Module& module, FunctionFlow& flow,
                                 const LaunchShape& launch, Divergence& divergence)
    : text_(text), module_(module), flow_(flow), launch_(launch), divergence_(divergence) {
  memo_.resize(flow_.definitions().size());
  const FunctionInfo& function = module_.functions[flow_.functionIndex()];
  firstInstruction_ = function.firstInstruction;
  reads_.resize(function.instructionCount);
  rebuiltReads_.resize(function.instructionCount);
  conditions_.resize(flow_.blocks().size());
  conditionsBuilt_.assign(flow_.blocks().size(), false);
  blockReach_.resize(flow_.blocks().size());
  splits_.assign(flow_.blocks().size(), -1);
}

std::optional<std::uint64_t> ThreadEvaluator::evaluate(std::uint32_t instruction, const InstructionOperand& operand,
                                                       const ThreadCoordinates& thread, std::uint64_t seed) {
  return evaluateOperand(instruction, operand, thread, seed, 0);
}

std::optional<std::uint64_t> ThreadEvaluator::evaluateAddress(std::uint32_t instruction,
                                                              const InstructionOperand& address,
                                                              const ThreadCoordinates& thread, std::uint64_t seed) {
  AddressParts parts = addressParts(instruction, address);
  if (!parts.known) return std::nullopt;
  if (!parts.base) return uniformValue(0x5100000000ull + parts.symbol, seed) + parts.offset;
  auto baseValue = parts.baseRead != nullptr ? evaluateRead(instruction, *parts.baseRead, thread, seed, 0)
                                             : evaluateOperand(instruction, *parts.base, thread, seed, 0);
  if (!baseValue) return std::nullopt;
  return *baseValue + parts.offset;
}

ThreadEvaluator::AddressParts ThreadEvaluator::addressParts(std::uint32_t instruction,
                                                            const InstructionOperand& address) {
  AddressParts parts;
  if (address.shape != OperandShape::Address) return parts;
  SitePlan* plan = sitePlan(instruction);
  if (plan != nullptr && (!plan->baseResolved || plan->baseOf != address.range.begin)) {
    plan->baseResolved = true;
    plan->baseOf = address.range.begin;
    plan->baseOperand = flow_.baseRegisterOf(address);
    plan->base = plan->baseOperand ? rebuiltRead(instruction, *plan->baseOperand) : nullptr;
  }
  parts.base = plan != nullptr ? plan->baseOperand : flow_.baseRegisterOf(address);
  parts.baseRead = plan != nullptr ? plan->base : nullptr;
  if (!parts.base) {
    if (address.symbol == kNoSymbol) return parts;  // `[0x100]` and the like.
    parts.symbol = address.symbol;
  }
  if (address.offset.end > address.offset.begin) {
    InstructionOperand offsetOperand;
    offsetOperand.shape = OperandShape::Expression;
    offsetOperand.range = address.offset;
    auto constant = constantOf(instruction, offsetOperand, address);
    if (!constant) return parts;
    parts.offset = *constant;
  }
  parts.known = true;
  return parts;
}

std::optional<std::uint64_t> ThreadEvaluator::constantOf(std::uint32_t instruction, const InstructionOperand& operand,
                                                         const InstructionOperand& owner) {
  OperandRead* read = operandRead(instruction, owner);
  if (read != nullptr && read->constantResolved) return read->constant;
  std::optional<std::uint64_t> constant = flow_.valueOf(instruction, operand).constantValue();
  if (read != nullptr) {
    read->constantResolved = true;
    read->constant = constant;
  }
  return constant;
}

std::optional<std::uint64_t> ThreadEvaluator::evaluateOperand(std::uint32_t instruction,
                                                              const InstructionOperand& operand,
                                                              const ThreadCoordinates& thread, std::uint64_t seed,
                                                              int depth) {
  if (depth > kMaxDepth) return std::nullopt;
  switch (operand.shape) {
    case OperandShape::Register: {
      OperandRead* read = operandRead(instruction, operand);
      if (read == nullptr) read = rebuiltRead(instruction, operand);
      if (read != nullptr) return evaluateRead(instruction, *read, thread, seed, depth);
      if (auto key = flow_.registerOf(operand)) return evaluateRegister(instruction, *key, thread, seed, depth);
      return std::nullopt;
    }
    case OperandShape::NegatedPredicate: {
      InstructionOperand reg = flow_.negatedRegisterOf(operand);
      auto value = evaluateOperand(instruction, reg, thread, seed, depth + 1);
      if (!value) return std::nullopt;
      return (*value & 1) ^ 1;
    }
    case OperandShape::SpecialRegister: {
      std::string_view name = textOf(operand.range);
      readsThread_ = true;
      coordinatesRead_ |= coordinatesReadBy(name);
      return evaluateSpecialRegister(name, thread);
    }
    case OperandShape::Symbol:
    case OperandShape::IntegerLiteral:
    case OperandShape::Expression: {
      if (operand.shape == OperandShape::Symbol && operand.symbol != kNoSymbol) {
        return uniformValue(0x5100000000ull + operand.symbol, seed);
      }
      return constantOf(instruction, operand, operand);
    }
    default:
      return std::nullopt;
  }
}

std::optional<std::uint64_t> ThreadEvaluator::evaluateSpecialRegister(std::string_view name,
                                                                      const ThreadCoordinates& thread) const {
  auto component = [&](std::string_view prefix) { return name.starts_with(prefix) ? componentOf(name.substr(prefix.size())) : -1; };
  std::uint64_t linear = thread.tid[0] + launch_.ntid[0] * (thread.tid[1] + launch_.ntid[1] * thread.tid[2]);
  if (name == "%laneid") return linear % 32;
  if (name == "%warpid") return linear / 32;
  if (int c = component("%tid"); c >= 0) return thread.tid[c];
  if (int c = component("%ntid"); c >= 0) return launch_.ntid[c];
  if (int c = component("%ctaid"); c >= 0) return thread.ctaid[c];
  if (int c = component("%nctaid"); c >= 0) return launch_.nctaid[c];
  const auto& cluster = launch_.cluster;
  if (int c = component("%cluster_ctaid"); c >= 0) return thread.ctaid[c] % cluster[c];
  if (int c = component("%cluster_nctaid"); c >= 0) return cluster[c];
  if (int c = component("%clusterid"); c >= 0) return thread.ctaid[c] / cluster[c];
  if (name == "%cluster_ctarank") {
    return thread.ctaid[0] % cluster[0] +
           cluster[0] * (thread.ctaid[1] % cluster[1] + cluster[1] * (thread.ctaid[2] % cluster[2]));
  }
  if (name == "%cluster_nctarank") return cluster[0] * cluster[1] * cluster[2];
  if (name == "WARP_SZ") return 32;
  return std::nullopt;
}

ThreadEvaluator::OperandRead* ThreadEvaluator::operandRead(std::uint32_t instruction,
                                                                 const InstructionOperand& operand) {
  if (instruction < firstInstruction_ || instruction - firstInstruction_ >= reads_.size()) return nullptr;
  const InstructionSite& site = module_.instructions[instruction];
  const InstructionOperand* first = module_.operands.data() + site.firstOperand;
  if (&operand < first || &operand >= first + site.operandCount) return nullptr;
  std::vector<OperandRead>& reads = reads_[instruction - firstInstruction_];
  if (reads.empty()) reads.resize(site.operandCount);
  OperandRead& read = reads[static_cast<std::size_t>(&operand - first)];
  if (!read.resolved) {
    read.resolved = true;
    read.reg = flow_.registerOf(operand);
    if (read.reg) read.reaching = reachingAt(instruction, *read.reg);
  }
  return &read;
}

ThreadEvaluator::OperandRead* ThreadEvaluator::rebuiltRead(std::uint32_t instruction,
                                                           const InstructionOperand& operand) {
  if (instruction < firstInstruction_ || instruction - firstInstruction_ >= rebuiltReads_.size()) return nullptr;
  auto& reads = rebuiltReads_[instruction - firstInstruction_];
  for (auto& [begin, read] : reads) {
    if (begin == operand.range.begin) return &read;
  }
  OperandRead read;
  read.resolved = true;
  read.reg = flow_.registerOf(operand);
  if (read.reg) read.reaching = reachingAt(instruction, *read.reg);
  reads.emplace_front(operand.range.begin, std::move(read));
  return &reads.front().second;
}

std::optional<std::uint64_t> ThreadEvaluator::evaluateRegister(std::uint32_t instruction, RegisterKey reg,
                                                               const ThreadCoordinates& thread, std::uint64_t seed,
                                                               int depth) {
  return evaluateReaching(instruction, reg, reachingAt(instruction, reg), thread, seed, depth);
}

std::optional<std::uint64_t> ThreadEvaluator::evaluateReaching(std::uint32_t instruction, RegisterKey reg,
                                                               const std::vector<std::uint32_t>& reaching,
                                                               const ThreadCoordinates& thread, std::uint64_t seed,
                                                               int depth) {
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
      readsThread_ = true;  // The thread's own previous iteration.
      coordinatesRead_ |= kReadsAll;
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
      bool reachesFromBefore =
          defBlock == readBlock ? defInstruction < instruction : flow_.dominates(defBlock, readBlock);
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

const std::vector<std::uint32_t>& ThreadEvaluator::reachingAt(std::uint32_t instruction, RegisterKey reg) {
  std::uint64_t key = (std::uint64_t{instruction} << 32) ^ (std::uint64_t{reg.symbol} << 12) ^ reg.index;
  auto it = reaching_.find(key);
  if (it != reaching_.end() && it->second.first == reg) return it->second.second;
  auto& slot = reaching_[key];
  slot = {reg, flow_.reachingDefinitions(instruction, reg)};
  return slot.second;
}

std::optional<std::uint64_t> ThreadEvaluator::evaluateDefinition(std::uint32_t definition,
                                                                 const ThreadCoordinates& thread, std::uint64_t seed,
                                                                 int depth) {
  using Operation = IntegerOperation;
  if (depth > kMaxDepth) return std::nullopt;
  useContext(thread, seed);
  if (const MemoEntry& entry = memo_[definition]; memoHolds(entry)) {
    readsThread_ = readsThread_ || entry.readsThread;
    coordinatesRead_ |= entry.reads;
    return entry.known ? std::optional<std::uint64_t>(entry.value) : std::nullopt;
  }
  // Whether (and which of) the thread's coordinates this definition reads, apart from what
  // the caller read.
  const bool callerReadsThread = readsThread_;
  const std::uint8_t callerReads = coordinatesRead_;
  readsThread_ = false;
  coordinatesRead_ = 0;
  const Definition& def = flow_.definitions()[definition];
  const InstructionSite& site = module_.instructions[def.instruction];
  auto finish = [&](std::optional<std::uint64_t> value) {
    MemoEntry& entry = memo_[definition];
    entry.mode = uniformContext_;
    entry.thread = currentThread_;
    entry.known = value.has_value();
    entry.value = value.value_or(0);
    entry.readsThread = readsThread_;
    entry.reads = coordinatesRead_;
    readsThread_ = readsThread_ || callerReadsThread;
    coordinatesRead_ |= callerReads;
    return value;
  };
  if (site.isCall || def.operand != site.firstOperand) return finish(std::nullopt);
  // The evaluation runs millions of times on a large kernel: the operation is decoded once.
  const IntegerOp& op = flow_.integerOpOf(def.instruction);
  if (!op.type.present() && op.operation != Operation::Mov) return finish(std::nullopt);
  if (op.type.isFloat()) return finish(std::nullopt);
  // A guarded definition keeps the old value when its guard fails.
  SitePlan* plan = site.isGuarded() ? guardPlan(def.instruction) : nullptr;
  std::optional<InstructionOperand> unplanned = plan == nullptr ? flow_.guardRegisterOf(site) : std::nullopt;
  if (const std::optional<InstructionOperand>& guard = plan != nullptr ? plan->guardOperand : unplanned) {
    auto holds = plan != nullptr && plan->guard != nullptr
                     ? evaluateRead(def.instruction, *plan->guard, thread, seed, depth + 1)
                     : evaluateOperand(def.instruction, *guard, thread, seed, depth + 1);
    if (!holds) return finish(std::nullopt);
    bool executes = ((*holds & 1) != 0) != site.guardNegated;
    if (!executes) return finish(evaluateRegister(def.instruction, def.reg, thread, seed, depth + 1));
  }
  auto source = [&](std::uint32_t k) -> std::optional<std::uint64_t> {
    if (k >= site.operandCount) return std::nullopt;
    return evaluateOperand(def.instruction, module_.operands[site.firstOperand + k], thread, seed, depth + 1);
  };
  if (op.operation == Operation::Ld || op.operation == Operation::Ldu) return finish(evaluateLoad(def, thread, seed));
  return finish(thread_values::operationResult(op, site.operandCount, source));
}

std::optional<std::uint64_t> ThreadEvaluator::evaluateRead(std::uint32_t instruction, const OperandRead& read,
                                                           const ThreadCoordinates& thread, std::uint64_t seed,
                                                           int depth) {
  // What evaluateOperand does for a register operand once its read is resolved.
  if (depth > kMaxDepth || !read.reg) return std::nullopt;
  return evaluateReaching(instruction, *read.reg, read.reaching, thread, seed, depth);
}

ThreadEvaluator::SitePlan* ThreadEvaluator::sitePlan(std::uint32_t instruction) {
  if (instruction < firstInstruction_ || instruction - firstInstruction_ >= reads_.size()) return nullptr;
  if (sitePlanIndex_.empty()) sitePlanIndex_.assign(reads_.size(), 0);
  std::uint32_t& slot = sitePlanIndex_[instruction - firstInstruction_];
  if (slot == 0) {
    sitePlans_.emplace_back();
    slot = static_cast<std::uint32_t>(sitePlans_.size());
  }
  return &sitePlans_[slot - 1];
}

ThreadEvaluator::SitePlan* ThreadEvaluator::guardPlan(std::uint32_t instruction) {
  SitePlan* plan = sitePlan(instruction);
  if (plan == nullptr || plan->guardResolved) return plan;
  plan->guardResolved = true;
  plan->guardOperand = flow_.guardRegisterOf(module_.instructions[instruction]);
  plan->guarded = plan->guardOperand.has_value();
  if (plan->guarded) {
    plan->guard = rebuiltRead(instruction, *plan->guardOperand);
    plan->guardDivergence = divergence_.ofRead(instruction, *plan->guardOperand);
  }
  return plan;
}

void ThreadEvaluator::useContext(const ThreadCoordinates& thread, std::uint64_t seed) {
  bool sameContext = memoSeed_ == seed && contextThread_.tid[0] == thread.tid[0] &&
                     contextThread_.tid[1] == thread.tid[1] && contextThread_.tid[2] == thread.tid[2] &&
                     contextThread_.ctaid[0] == thread.ctaid[0] && contextThread_.ctaid[1] == thread.ctaid[1] &&
                     contextThread_.ctaid[2] == thread.ctaid[2];
  if (sameContext && !threadsSeen_.empty()) return;
  ++stamp_;
  if (memoSeed_ != seed) ++uniformContext_;
  memoSeed_ = seed;
  contextThread_ = thread;
  std::uint64_t key = 0;
  for (std::uint32_t c : {thread.tid[0], thread.tid[1], thread.tid[2], thread.ctaid[0], thread.ctaid[1], thread.ctaid[2]}) {
    key = mix(key ^ c);
  }
  auto [it, added] = threadIds_.try_emplace(key, static_cast<std::uint32_t>(threadsSeen_.size()));
  // A key of another thread (a collision) is replaced: only equal coordinates share an id.
  if (!added && (threadsSeen_[it->second].tid != thread.tid || threadsSeen_[it->second].ctaid != thread.ctaid)) {
    it->second = static_cast<std::uint32_t>(threadsSeen_.size());
    added = true;
  }
  if (added) threadsSeen_.push_back(thread);
  currentThread_ = it->second;
}

ThreadEvaluator::LoadPlan ThreadEvaluator::loadPlan(const Definition& def) {
  // A load at an address every thread computes alike reads the same word for all of them
  // (at the same moment): a uniform value. Parameters are read-only, so always.
  LoadPlan plan;
  const InstructionSite& site = module_.instructions[def.instruction];
  const InstructionFacts& facts = module_.factsOf(site);
  bool param = std::any_of(facts.modifiers.begin(), facts.modifiers.end(),
                           [](Modifier m) { return infoOf(m).space == StateSpace::Param; });
  if (site.operandCount < 2 || module_.operands[site.firstOperand].shape == OperandShape::Vector) return plan;
  const InstructionOperand& address = module_.operands[site.firstOperand + 1];
  if (divergence_.ofRead(def.instruction, address) != 0) return plan;
  plan.known = true;
  plan.identity =
      param ? 0x7000000000ull + address.symbol * 4096ull + address.offset.begin : 0x9000000000ull + def.instruction;
  // Parameters and constant banks hold the same words for every CTA; anything else may not
  // (each CTA has its own shared memory, and global memory changes under the grid).
  plan.perCta = !param && !facts.has(Modifier::Const);
  if (param && address.offset.end > address.offset.begin) plan.identity ^= mix(address.offset.end);
  plan.width = flow_.integerOpOf(def.instruction).type.width();
  return plan;
}

std::optional<std::uint64_t> ThreadEvaluator::loadValue(const LoadPlan& plan, const ThreadCoordinates& thread,
                                                        std::uint64_t seed) {
  if (!plan.known) return std::nullopt;
  std::uint64_t identity = plan.identity;
  if (plan.perCta) {
    readsThread_ = true;
    coordinatesRead_ |= kReadsCta;
    identity ^= mix((std::uint64_t{thread.ctaid[0]} << 40) ^ (std::uint64_t{thread.ctaid[1]} << 20) ^ thread.ctaid[2]);
  }
  return truncateTo(uniformValue(identity, seed), plan.width);
}

std::optional<std::uint64_t> ThreadEvaluator::evaluateLoad(const Definition& def, const ThreadCoordinates& thread,
                                                           std::uint64_t seed) {
  return loadValue(loadPlan(def), thread, seed);
}

std::optional<std::uint64_t> ThreadEvaluator::valueTerm(std::uint32_t instruction, const InstructionOperand& operand,
                                                        const ThreadCoordinates& thread, std::uint64_t seed) {
  TermMemo memo;
  return termOfOperand(instruction, operand, thread, seed, 0, memo);
}

std::optional<std::uint64_t> ThreadEvaluator::termOfOperand(std::uint32_t instruction,
                                                            const InstructionOperand& operand,
                                                            const ThreadCoordinates& thread, std::uint64_t seed,
                                                            int depth, TermMemo& memo) {
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

std::optional<std::uint64_t> ThreadEvaluator::termOfDefinition(std::uint32_t definition,
                                                               const ThreadCoordinates& thread, std::uint64_t seed,
                                                               int depth, TermMemo& memo) {
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
  const InstructionFacts& facts = module_.factsOf(site);
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
  if (facts.is(Family::Ld) || facts.is(Family::Ldu)) {
    if (site.operandCount < 2) return finish(std::nullopt);
    // The word's memory: shared memory is the CTA's, local memory the thread's; a generic
    // address may be either, and is left unknown.
    std::uint64_t memory = 0;
    bool known = false;
    for (Modifier modifier : facts.modifiers) {
      if (modifier == Modifier::Global || modifier == Modifier::Const || modifier == Modifier::Param) known = true;
      StateSpace space = infoOf(modifier).space;
      if (space == StateSpace::Shared || space == StateSpace::SharedCluster) {
        known = true;
        memory = mix((std::uint64_t{thread.ctaid[0]} << 42) ^ (std::uint64_t{thread.ctaid[1]} << 21) ^ thread.ctaid[2]);
      }
    }
    if (!known) return finish(std::nullopt);
    auto address = evaluateAddress(def.instruction, module_.operands[site.firstOperand + 1], thread, seed);
    if (!address) return finish(std::nullopt);
    return finish(mix(kLoadTerm ^ mix(memory ^ mix(*address ^ (std::uint64_t{element} << 56)))));
  }
  if (resultIsOpaque(facts.family)) return finish(std::nullopt);
  // The operation (family and modifiers) over its sources' stand-ins.
  std::uint64_t h = mix(kOperationTerm ^ (static_cast<std::uint64_t>(facts.family) << 8));
  for (Modifier modifier : facts.modifiers) h = mix(h ^ static_cast<std::uint64_t>(modifier));
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

}  // namespace ptx::flow

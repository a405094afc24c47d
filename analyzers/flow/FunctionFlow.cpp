#include "flow/FunctionFlow.h"

#include <algorithm>
#include <map>
#include <charconv>

#include "flow/ConstantExpression.h"
#include "flow/ThreadModel.h"

namespace ptx::flow {
namespace {

unsigned log2Floor(std::uint64_t value) { return value == 0 ? 0 : 63 - static_cast<unsigned>(std::countl_zero(value)); }

// Address-space conversions (cvta, mapa) move an address between windows whose bases are
// aligned far beyond anything the rules ask about; the low bits survive, the rest do not.
constexpr unsigned kWindowBits = 16;

KnownBits lowBitsOnly(const KnownBits& bits, unsigned count) {
  std::uint64_t mask = count >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1;
  return {bits.zero & mask, bits.one & mask};
}

AbstractValue widened(AbstractValue value) {
  value.bits = lowBitsOnly(value.bits, value.bits.knownLowBits());
  value.offset = lowBitsOnly(value.offset, value.offset.knownLowBits());
  return value;
}

}  // namespace

std::optional<std::uint32_t> typeSizeInBytes(Modifier type) {
  const ModifierInfo& info = infoOf(type);
  if (info.typeClass == TypeClass::None || info.typeBytes == 0) return std::nullopt;
  return info.typeBytes;
}


std::optional<std::uint64_t> declaredAlignment(const Symbol& symbol) {
  if (symbol.alignment) return symbol.alignment;
  auto size = typeSizeInBytes(symbol.typeId);
  if (!size) return std::nullopt;
  return std::uint64_t{*size} * (symbol.vectorWidth == 0 ? 1 : symbol.vectorWidth);
}

AbstractValue AbstractValue::meet(const AbstractValue& other) const {
  if (!computed) return other;
  if (!other.computed) return *this;
  AbstractValue result;
  result.computed = true;
  result.bits = bits.meet(other.bits);
  if (base == other.base && base != kNoSymbol) {
    result.base = base;
    result.offset = offset.meet(other.offset);
  }
  return result;
}

FunctionFlow::FunctionFlow(std::string_view text, const Module& module, std::size_t functionIndex)
    : text_(text), module_(module), function_(functionIndex) {
  const FunctionInfo& function = module.functions[functionIndex];
  first_ = function.firstInstruction;
  end_ = function.firstInstruction + function.instructionCount;
  buildBlocks();
  collectDefinitions();
}

void FunctionFlow::buildBlocks() {
  const FunctionInfo& function = module_.functions[function_];
  std::uint32_t count = end_ - first_;
  blockOfInstruction_.assign(count, 0);
  if (count == 0) return;
  // Where each label of the body sits: before the first instruction that follows it. Sorted
  // by label for the branch targets' lookups (a `-G` body has thousands of labels).
  std::vector<std::pair<SymbolId, std::uint32_t>> labelAt;
  if (function.bodyScope != kNoScope) {
    ByteRange body = module_.scopes[function.bodyScope].range;
    for (ScopeId scope = function.bodyScope; scope < module_.scopes.size(); ++scope) {
      const Scope& s = module_.scopes[scope];
      if (s.range.begin < body.begin || s.range.begin >= body.end) {
        if (scope != function.bodyScope) break;
      }
      for (SymbolId label : s.labels) {
        std::uint32_t at = module_.symbols[label].declarationRange.end;
        auto next = std::lower_bound(module_.instructions.begin() + first_, module_.instructions.begin() + end_, at,
                                     [](const InstructionSite& site, std::uint32_t offset) { return site.statement.begin < offset; });
        labelAt.emplace_back(label, static_cast<std::uint32_t>(next - module_.instructions.begin()));
      }
    }
  }
  std::sort(labelAt.begin(), labelAt.end());
  auto labelPosition = [&](SymbolId label) -> std::optional<std::uint32_t> {
    auto it = std::lower_bound(labelAt.begin(), labelAt.end(), label,
                               [](const auto& entry, SymbolId key) { return entry.first < key; });
    if (it == labelAt.end() || it->first != label) return std::nullopt;
    return it->second;
  };
  std::vector<bool> leader(count + 1, false);
  leader[0] = true;
  for (const auto& [label, at] : labelAt) leader[at - first_] = true;
  enum class Exit : std::uint8_t { FallThrough, Branch, Stop };
  std::vector<Exit> exits(count, Exit::FallThrough);
  for (std::uint32_t i = first_; i < end_; ++i) {
    const InstructionSite& site = module_.instructions[i];
    const InstructionFacts& facts = module_.factsOf(site);
    if (facts.does(kBranch | kIndirectBranch)) exits[i - first_] = Exit::Branch;
    else if (facts.does(kReturn | kExit | kTrap) && !site.isGuarded()) exits[i - first_] = Exit::Stop;
    if (exits[i - first_] != Exit::FallThrough || facts.does(kReturn | kExit)) leader[i - first_ + 1] = true;
  }
  // Sized exactly: a whole lint holds every function's flow until its last dataflow rule.
  blocks_.reserve(static_cast<std::size_t>(std::count(leader.begin(), leader.begin() + count, true)));
  for (std::uint32_t i = 0; i < count; ++i) {
    if (leader[i]) blocks_.push_back({first_ + i, first_ + i, {}, {}});
    blocks_.back().end = first_ + i + 1;
    blockOfInstruction_[i] = static_cast<std::uint32_t>(blocks_.size() - 1);
  }
  std::vector<std::uint32_t> allLabelBlocks;
  for (const auto& [label, at] : labelAt) {
    if (at < end_) allLabelBlocks.push_back(blockOfInstruction_[at - first_]);
  }
  std::sort(allLabelBlocks.begin(), allLabelBlocks.end());
  allLabelBlocks.erase(std::unique(allLabelBlocks.begin(), allLabelBlocks.end()), allLabelBlocks.end());
  for (std::uint32_t b = 0; b < blocks_.size(); ++b) {
    BasicBlock& block = blocks_[b];
    std::uint32_t last = block.end - 1;
    const InstructionSite& site = module_.instructions[last];
    Exit exit = exits[last - first_];
    auto add = [&](std::uint32_t successor) {
      if (std::find(block.successors.begin(), block.successors.end(), successor) == block.successors.end()) {
        block.successors.push_back(successor);
      }
    };
    bool fallsThrough = exit == Exit::FallThrough || (exit == Exit::Branch && site.isGuarded());
    if (exit == Exit::Branch) {
      bool resolved = false;
      if (module_.factsOf(site).does(kBranch) && site.operandCount > 0) {
        const InstructionOperand& target = module_.operands[site.firstOperand];
        for (const Reference& reference : module_.referencesWithin(target.range)) {
          std::optional<std::uint32_t> at = labelPosition(reference.target);
          if (!at) continue;
          if (*at < end_) add(blockOfInstruction_[*at - first_]);
          resolved = true;
        }
      }
      // brx.idx, or a target the model could not resolve: any label may follow.
      if (!resolved) {
        for (std::uint32_t target : allLabelBlocks) add(target);
      }
    }
    if (fallsThrough && b + 1 < blocks_.size()) add(b + 1);
  }
  for (std::uint32_t b = 0; b < blocks_.size(); ++b) {
    for (std::uint32_t successor : blocks_[b].successors) blocks_[successor].predecessors.push_back(b);
  }
}

std::uint32_t FunctionFlow::blockOf(std::uint32_t instruction) const { return blockOfInstruction_[instruction - first_]; }

const std::vector<std::uint32_t>& FunctionFlow::immediateDominators() {
  if (!dominators_) dominators_ = flow::immediateDominators(blocks_);
  return *dominators_;
}

const std::vector<std::uint32_t>& FunctionFlow::immediatePostDominators() {
  if (!postDominators_) postDominators_ = flow::immediatePostDominators(blocks_);
  return *postDominators_;
}

const std::vector<NaturalLoop>& FunctionFlow::naturalLoops() {
  if (!loops_) loops_ = naturalLoopsOf(blocks_, immediateDominators());
  return *loops_;
}

const IntegerOp& FunctionFlow::integerOpOf(std::uint32_t instruction) {
  if (decoded_.empty()) {
    decoded_.assign(end_ - first_, 0);
    integerOps_.resize(end_ - first_);
  }
  std::uint32_t at = instruction - first_;
  if (!decoded_[at]) {
    decoded_[at] = 1;
    integerOps_[at] = decodeIntegerOp(module_.factsOf(instruction));
  }
  return integerOps_[at];
}

std::optional<RegisterKey> FunctionFlow::registerOf(const InstructionOperand& operand) const {
  if (operand.shape != OperandShape::Register || operand.symbol == kNoSymbol) return std::nullopt;
  const Symbol& symbol = module_.symbols[operand.symbol];
  RegisterKey key{operand.symbol, 0};
  if (symbol.rangeCount > 0) {
    std::string_view spelled = textOf(operand.range);
    if (spelled.size() <= symbol.name.size()) return std::nullopt;
    spelled.remove_prefix(symbol.name.size());
    auto [end, error] = std::from_chars(spelled.data(), spelled.data() + spelled.size(), key.index);
    if (error != std::errc()) return std::nullopt;
  }
  return key;
}

OperandIndices FunctionFlow::definedOperands(std::uint32_t instruction) const {
  const InstructionSite& site = module_.instructions[instruction];
  auto indices = [](std::uint32_t first, std::uint32_t count) { return OperandIndices(first, first + count); };
  if (site.inDamagedCode) return indices(0, 0);
  if (site.isCall) return indices(site.firstOperand, std::min(site.callReturnCount, site.operandCount));
  if (site.operandCount == 0 || module_.factsOf(site).does(kNoDestination)) return indices(0, 0);
  const InstructionOperand& first = module_.operands[site.firstOperand];
  if (first.shape == OperandShape::Register) return indices(site.firstOperand, 1);
  if (first.shape == OperandShape::Vector || first.shape == OperandShape::PredicatePair) {
    return indices(first.firstElement, first.elementCount);
  }
  return indices(0, 0);
}

void FunctionFlow::collectDefinitions() {
  firstDefinitionOf_.assign(end_ - first_ + 1, 0);
  // At most one definition per defined operand: reserved, the list is not grown by doubling
  // (a whole lint holds every function's flow until its last dataflow rule).
  std::size_t defined = 0;
  for (std::uint32_t i = first_; i < end_; ++i) defined += definedOperands(i).size();
  definitions_.reserve(defined);
  for (std::uint32_t i = first_; i < end_; ++i) {
    firstDefinitionOf_[i - first_] = static_cast<std::uint32_t>(definitions_.size());
    for (std::uint32_t operand : definedOperands(i)) {
      auto key = registerOf(module_.operands[operand]);
      if (!key) continue;
      definitions_.push_back({i, *key, operand});
    }
  }
  firstDefinitionOf_[end_ - first_] = static_cast<std::uint32_t>(definitions_.size());
  indexDefinitionsByRegister();
  values_.assign(definitions_.size(), AbstractValue{});
  solved_.assign(definitions_.size(), false);
}

namespace {

std::size_t slotOf(const RegisterKey& key, std::size_t mask) {
  std::uint64_t word = (std::uint64_t{key.symbol} << 32) | key.index;
  word *= 0x9E3779B97F4A7C15ull;  // Fibonacci hashing: the high bits mix every input bit.
  return static_cast<std::size_t>(word >> 32) & mask;
}

}  // namespace

void FunctionFlow::indexDefinitionsByRegister() {
  // Group the definition indices by register, keeping instruction order within a register.
  definitionsByRegister_.resize(definitions_.size());
  for (std::uint32_t d = 0; d < definitions_.size(); ++d) definitionsByRegister_[d] = d;
  std::stable_sort(definitionsByRegister_.begin(), definitionsByRegister_.end(), [&](std::uint32_t a, std::uint32_t b) {
    const RegisterKey& x = definitions_[a].reg;
    const RegisterKey& y = definitions_[b].reg;
    return x.symbol != y.symbol ? x.symbol < y.symbol : x.index < y.index;
  });
  std::size_t registers = 0;
  for (std::size_t i = 0; i < definitionsByRegister_.size(); ++i) {
    if (i == 0 || !(definitions_[definitionsByRegister_[i]].reg == definitions_[definitionsByRegister_[i - 1]].reg)) {
      ++registers;
    }
  }
  std::size_t size = 1;
  while (size < registers * 2) size <<= 1;
  registerSlices_.assign(size, RegisterSlice{});
  const std::size_t mask = size - 1;
  for (std::size_t i = 0; i < definitionsByRegister_.size();) {
    const RegisterKey& key = definitions_[definitionsByRegister_[i]].reg;
    std::size_t end = i + 1;
    while (end < definitionsByRegister_.size() && definitions_[definitionsByRegister_[end]].reg == key) ++end;
    std::size_t slot = slotOf(key, mask);
    while (registerSlices_[slot].count != 0) slot = (slot + 1) & mask;
    registerSlices_[slot] = {key, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(end - i)};
    i = end;
  }
}

std::span<const std::uint32_t> FunctionFlow::definitionsOf(RegisterKey reg) const {
  if (registerSlices_.empty()) return {};
  const std::size_t mask = registerSlices_.size() - 1;
  for (std::size_t slot = slotOf(reg, mask);; slot = (slot + 1) & mask) {
    const RegisterSlice& entry = registerSlices_[slot];
    if (entry.count == 0) return {};
    if (entry.key == reg) return {definitionsByRegister_.data() + entry.first, entry.count};
  }
}

const std::vector<std::uint32_t>& FunctionFlow::reachingBlockEntry(RegisterKey reg, std::uint32_t block) {
  RegisterReach& reach = reach_[reg];
  if (reach.lastInBlock.empty()) {
    // Definitions are listed in instruction order: the last one seen in a block is its last.
    for (std::uint32_t d : definitionsOf(reg)) {
      std::uint32_t b = blockOf(definitions_[d].instruction);
      if (!reach.lastInBlock.empty() && reach.lastInBlock.back().first == b) {
        reach.lastInBlock.back().second = d;
      } else {
        reach.lastInBlock.push_back({b, d});
      }
    }
    std::stable_sort(reach.lastInBlock.begin(), reach.lastInBlock.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
  }
  if (!reach.solved && reach.searchSteps > blocks_.size()) solveReach(reach);
  if (reach.solved) return reach.sets[reach.atBlockEntry[block]];
  auto [it, added] = reach.searched.try_emplace(block);
  if (!added) return it->second;
  // Backwards from the block: a predecessor that defines the register contributes its last
  // definition; one that does not is gone through.
  auto lastIn = [&](std::uint32_t b) -> std::int64_t {
    auto at = std::lower_bound(reach.lastInBlock.begin(), reach.lastInBlock.end(), b,
                               [](const auto& entry, std::uint32_t key) { return entry.first < key; });
    return at != reach.lastInBlock.end() && at->first == b ? static_cast<std::int64_t>(at->second) : -1;
  };
  if (searchMark_.size() != blocks_.size()) searchMark_.assign(blocks_.size(), 0);
  if (++searchStamp_ == 0) {
    std::fill(searchMark_.begin(), searchMark_.end(), 0);
    searchStamp_ = 1;
  }
  std::vector<std::uint32_t>& found = it->second;
  std::vector<std::uint32_t> pending{block};
  searchMark_[block] = searchStamp_;
  while (!pending.empty()) {
    std::uint32_t b = pending.back();
    pending.pop_back();
    for (std::uint32_t p : blocks_[b].predecessors) {
      ++reach.searchSteps;
      if (std::int64_t d = lastIn(p); d >= 0) {
        found.push_back(static_cast<std::uint32_t>(d));
      } else if (searchMark_[p] != searchStamp_) {
        searchMark_[p] = searchStamp_;
        pending.push_back(p);
      }
    }
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

void FunctionFlow::solveReach(RegisterReach& reach) {
  reach.solved = true;
  reach.searched = {};
  std::size_t blocks = blocks_.size();
  // The last definition of the register in each block, if any.
  std::vector<std::int64_t> lastIn(blocks, -1);
  for (const auto& [b, d] : reach.lastInBlock) lastIn[b] = d;
  reach.atBlockEntry.assign(blocks, 0);
  reach.sets.assign(1, {});
  // The index of a list in reach.sets, added when new.
  std::map<std::vector<std::uint32_t>, std::uint32_t> interned{{{}, 0}};
  auto intern = [&](const std::vector<std::uint32_t>& list) {
    auto [it, added] = interned.try_emplace(list, static_cast<std::uint32_t>(reach.sets.size()));
    if (added) reach.sets.push_back(list);
    return it->second;
  };
  std::vector<std::uint32_t> worklist;
  std::vector<bool> queued(blocks, false);
  for (std::uint32_t b = 0; b < blocks; ++b) {
    if (lastIn[b] >= 0) {
      for (std::uint32_t s : blocks_[b].successors) {
        if (!queued[s]) {
          queued[s] = true;
          worklist.push_back(s);
        }
      }
    }
  }
  // Scratch lists reused across blocks: this runs for every block of every register asked about.
  std::vector<std::uint32_t> merged, joined;
  while (!worklist.empty()) {
    std::uint32_t b = worklist.back();
    worklist.pop_back();
    queued[b] = false;
    merged.clear();
    for (std::uint32_t p : blocks_[b].predecessors) {
      // What leaves p: its own last definition, or what enters it.
      auto own = static_cast<std::uint32_t>(lastIn[p]);
      const std::vector<std::uint32_t>& entering = reach.sets[reach.atBlockEntry[p]];
      const std::uint32_t* from = lastIn[p] >= 0 ? &own : entering.data();
      std::size_t count = lastIn[p] >= 0 ? 1 : entering.size();
      if (count == 0) continue;
      joined.clear();
      std::set_union(merged.begin(), merged.end(), from, from + count, std::back_inserter(joined));
      merged.swap(joined);
    }
    if (merged == reach.sets[reach.atBlockEntry[b]]) continue;
    reach.atBlockEntry[b] = intern(merged);
    if (lastIn[b] >= 0) continue;  // Its own definition hides the change from successors.
    for (std::uint32_t s : blocks_[b].successors) {
      if (!queued[s]) {
        queued[s] = true;
        worklist.push_back(s);
      }
    }
  }
}

std::span<const std::uint32_t> FunctionFlow::reaching(std::uint32_t instruction, RegisterKey reg) {
  std::span<const std::uint32_t> all = definitionsOf(reg);
  if (all.empty()) return {};
  // A register written once (what compilers emit almost everywhere) has that one definition.
  if (all.size() == 1) return all;
  std::uint32_t block = blockOf(instruction);
  const std::uint32_t* last = nullptr;
  for (const std::uint32_t& d : all) {
    std::uint32_t at = definitions_[d].instruction;
    if (at < instruction && blockOf(at) == block) last = &d;
  }
  if (last != nullptr) return {last, 1};
  return reachingBlockEntry(reg, block);
}

std::vector<std::uint32_t> FunctionFlow::reachingDefinitions(std::uint32_t instruction, RegisterKey reg) {
  std::span<const std::uint32_t> found = reaching(instruction, reg);
  return {found.begin(), found.end()};
}

AbstractValue FunctionFlow::symbolAddress(SymbolId symbol) const {
  AbstractValue value;
  value.computed = true;
  value.base = symbol;
  value.offset = KnownBits::constant(0);
  auto alignment = declaredAlignment(module_.symbols[symbol]);
  if (alignment && *alignment > 0) value.bits = KnownBits::alignedTo(log2Floor(*alignment));
  return value;
}

AbstractValue FunctionFlow::operandValue(std::uint32_t instruction, const InstructionOperand& operand) {
  switch (operand.shape) {
    case OperandShape::Register: {
      auto key = registerOf(operand);
      if (!key) return AbstractValue::unknown();
      std::span<const std::uint32_t> definitions = reaching(instruction, *key);
      if (definitions.empty()) return AbstractValue::unknown();
      AbstractValue value;
      for (std::uint32_t d : definitions) value = value.meet(values_[d]);
      return value;
    }
    case OperandShape::IntegerLiteral:
    case OperandShape::Expression:
      if (auto constant = evaluateConstant(textOf(operand.range))) {
        return AbstractValue::constant(static_cast<std::uint64_t>(*constant));
      }
      return AbstractValue::unknown();
    case OperandShape::Symbol:
      return operand.symbol == kNoSymbol ? AbstractValue::unknown() : symbolAddress(operand.symbol);
    default:
      return AbstractValue::unknown();
  }
}

AbstractValue FunctionFlow::evaluate(std::uint32_t definition) {
  using Operation = IntegerOperation;
  const Definition& def = definitions_[definition];
  const InstructionSite& site = module_.instructions[def.instruction];
  if (site.isCall) return AbstractValue::unknown();
  const IntegerOp& op = integerOpOf(def.instruction);
  if (def.operand != site.firstOperand) {
    // `mov.b64 {lo, hi}, %rd`: each element is its slice of the source.
    const InstructionOperand& destination = module_.operands[site.firstOperand];
    if (op.operation != Operation::Mov || site.operandCount != 2 || destination.shape != OperandShape::Vector ||
        destination.elementCount == 0 || site.modifierCount != 1) {
      return AbstractValue::unknown();
    }
    if (!op.type.present() || op.type.isPredicate() || op.type.bits > 64) return AbstractValue::unknown();
    unsigned slice = op.type.bits / destination.elementCount;
    unsigned index = def.operand - destination.firstElement;
    AbstractValue source = operandValue(def.instruction, module_.operands[site.firstOperand + 1]);
    if (!source.computed) return AbstractValue{};
    AbstractValue value = AbstractValue::unknown();
    value.bits = shiftRight(source.bits, index * slice, 64).truncated(slice);
    return value;
  }
  // A predicate destination type leaves the width of the words computed with at 64.
  bool typed = op.type.present();
  bool integerTyped = typed && !op.type.isFloat();
  unsigned width = typed && !op.type.isPredicate() ? op.type.bits : 64;
  if (width > 64) return AbstractValue::unknown();
  std::vector<AbstractValue> sources;
  for (std::uint32_t i = 1; i < site.operandCount; ++i) {
    sources.push_back(operandValue(def.instruction, module_.operands[site.firstOperand + i]));
  }
  for (const AbstractValue& source : sources) {
    if (!source.computed) return AbstractValue{};  // Not reached by the fixpoint yet.
  }
  auto plain = [&](KnownBits bits) {
    AbstractValue value = AbstractValue::unknown();
    value.bits = bits.truncated(width);
    return value;
  };
  auto withBase = [&](AbstractValue value) {
    value.bits = value.bits.truncated(width);
    return value;
  };
  switch (op.operation) {
    case Operation::Mov:
      if (sources.size() == 1 && module_.operands[site.firstOperand + 1].shape != OperandShape::Vector) {
        return withBase(sources[0]);
      }
      if (site.operandCount == 2 && module_.operands[site.firstOperand + 1].shape == OperandShape::Vector) {
        // `mov.b64 %rd, {lo, hi}`: the elements packed from the low end.
        const InstructionOperand& packed = module_.operands[site.firstOperand + 1];
        if (packed.elementCount == 0) return AbstractValue::unknown();
        unsigned slice = width / packed.elementCount;
        KnownBits bits = KnownBits::constant(0);
        for (std::uint32_t e = 0; e < packed.elementCount; ++e) {
          AbstractValue element = operandValue(def.instruction, module_.operands[packed.firstElement + e]);
          if (!element.computed) return AbstractValue{};
          bits = bits | shiftLeft(element.bits.truncated(slice), e * slice);
        }
        return plain(bits);
      }
      break;
    case Operation::Cvta:
    case Operation::Mapa:
      if (!sources.empty()) {
        AbstractValue value = sources[0];
        value.bits = lowBitsOnly(value.bits, kWindowBits);
        return withBase(value);
      }
      break;
    case Operation::Cvt: {
      if (sources.size() != 1 || op.typeCount != 2) break;
      if (op.type.isPredicate() || op.sourceType.isPredicate() || op.rounds || op.type.isFloat() ||
          op.sourceType.isFloat()) {
        return AbstractValue::unknown();
      }
      unsigned to = op.type.bits, from = op.sourceType.bits;
      AbstractValue value = sources[0];
      KnownBits source = value.bits.truncated(from);
      if (op.sourceType.isSigned()) source = source.signExtended(from);
      value.bits = source.truncated(to);
      // Narrowing a 64-bit shared or generic address to 32 bits (nvcc's
      // __cvta_generic_to_shared) keeps which variable it points into; below 32 bits it does not.
      if (to < from && to < 32) value.base = kNoSymbol;
      return value;
    }
    case Operation::Add:
    case Operation::Sub: {
      if (sources.size() != 2 || !integerTyped || op.saturates || op.carries) break;
      bool add = op.operation == Operation::Add;
      const AbstractValue& a = sources[0];
      const AbstractValue& b = sources[1];
      AbstractValue value = AbstractValue::unknown();
      value.bits = add ? a.bits + b.bits : a.bits - b.bits;
      if (a.base != kNoSymbol && b.base == kNoSymbol) {
        value.base = a.base;
        value.offset = add ? a.offset + b.bits : a.offset - b.bits;
      } else if (add && b.base != kNoSymbol && a.base == kNoSymbol) {
        value.base = b.base;
        value.offset = b.offset + a.bits;
      }
      return withBase(value);
    }
    case Operation::Mul:
    case Operation::Mad: {
      if (!integerTyped || !(op.low || op.wide)) break;
      if (sources.size() < 2) return AbstractValue::unknown();
      KnownBits a = sources[0].bits;
      KnownBits b = sources[1].bits;
      if (op.wide) {
        a = op.type.isSigned() ? a.truncated(width).signExtended(width) : a.truncated(width);
        b = op.type.isSigned() ? b.truncated(width).signExtended(width) : b.truncated(width);
        width *= 2;
      }
      KnownBits product = a * b;
      if (op.operation == Operation::Mul) return plain(product);
      if (sources.size() < 3 || op.high || op.saturates || op.carries) return AbstractValue::unknown();
      AbstractValue value = AbstractValue::unknown();
      value.bits = product + sources[2].bits;
      if (sources[2].base != kNoSymbol) {
        value.base = sources[2].base;
        value.offset = sources[2].offset + product;
      }
      return withBase(value);
    }
    case Operation::Shl:
      if (sources.size() == 2 && sources[1].isConstant()) {
        return plain(shiftLeft(sources[0].bits.truncated(width), static_cast<unsigned>(sources[1].bits.value() & 0xff)));
      }
      break;
    case Operation::Shr: {
      if (sources.size() != 2 || !sources[1].isConstant() || !typed) break;
      auto amount = static_cast<unsigned>(std::min<std::uint64_t>(sources[1].bits.value(), 64));
      KnownBits value = sources[0].bits.truncated(width);
      if (op.type.isSigned()) return plain(arithmeticShiftRight(value, amount, width));
      return plain(shiftRight(value, amount, width));
    }
    case Operation::And:
    case Operation::Or:
    case Operation::Xor: {
      if (sources.size() != 2 || !typed || op.type.isPredicate()) break;
      KnownBits a = sources[0].bits, b = sources[1].bits;
      return plain(op.operation == Operation::And ? (a & b) : op.operation == Operation::Or ? (a | b) : (a ^ b));
    }
    case Operation::Not:
      if (sources.size() == 1 && typed && !op.type.isPredicate()) return plain(~sources[0].bits);
      break;
    case Operation::Neg:
      if (sources.size() == 1 && integerTyped) return plain(KnownBits::constant(0) - sources[0].bits);
      break;
    case Operation::Selp:
      if (sources.size() == 3) return withBase(sources[0].meet(sources[1]));
      break;
    case Operation::Bfi:
      if (sources.size() == 4 && sources[2].isConstant() && sources[3].isConstant()) {
        // bfi d, a, b, pos, len: b with len bits of a inserted at pos.
        std::uint64_t position = sources[2].bits.value() & 0xff;
        std::uint64_t length = sources[3].bits.value() & 0xff;
        if (position >= width || length == 0) return plain(sources[1].bits);
        if (position + length > width) length = width - position;
        std::uint64_t field = length >= 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << length) - 1) << position;
        KnownBits inserted = shiftLeft(sources[0].bits, static_cast<unsigned>(position)) & KnownBits::constant(field);
        KnownBits kept = sources[1].bits & KnownBits::constant(~field);
        return plain(inserted | kept);
      }
      break;
    case Operation::Ld:
      if (module_.factsOf(site).has(Modifier::Param) && site.operandCount >= 2) {
        // A kernel parameter declared `.ptr.align N` holds an N-aligned pointer.
        const InstructionOperand& address = module_.operands[site.firstOperand + 1];
        if (address.shape == OperandShape::Address && address.symbol != kNoSymbol &&
            address.offset.end == address.offset.begin) {
          const Symbol& parameter = module_.symbols[address.symbol];
          if (parameter.isPointer && parameter.pointerAlignment && *parameter.pointerAlignment > 0) {
            return plain(KnownBits::alignedTo(log2Floor(*parameter.pointerAlignment)));
          }
        }
      }
      break;
    default:
      break;
  }
  return AbstractValue::unknown();
}

void FunctionFlow::solve(std::uint32_t root) {
  if (solved_[root]) return;
  // The unsolved definitions this one depends on, transitively.
  std::vector<std::uint32_t> closure;
  std::vector<std::uint32_t> stack{root};
  std::vector<bool> seen(definitions_.size(), false);
  seen[root] = true;
  while (!stack.empty()) {
    std::uint32_t d = stack.back();
    stack.pop_back();
    closure.push_back(d);
    const InstructionSite& site = module_.instructions[definitions_[d].instruction];
    auto visit = [&](const InstructionOperand& operand) {
      auto key = registerOf(operand);
      if (!key) return;
      for (std::uint32_t source : reaching(definitions_[d].instruction, *key)) {
        if (!seen[source] && !solved_[source]) {
          seen[source] = true;
          stack.push_back(source);
        }
      }
    };
    for (std::uint32_t i = 1; i < site.operandCount && !site.isCall; ++i) {
      const InstructionOperand& operand = module_.operands[site.firstOperand + i];
      visit(operand);
      if (operand.shape == OperandShape::Vector) {
        for (std::uint32_t e = 0; e < operand.elementCount; ++e) visit(module_.operands[operand.firstElement + e]);
      }
      if (auto base = baseRegisterOf(operand)) visit(*base);
    }
  }
  std::sort(closure.begin(), closure.end());
  constexpr int kMaxRounds = 16;
  bool changed = true;
  for (int round = 0; round < kMaxRounds && changed; ++round) {
    changed = false;
    for (std::uint32_t d : closure) {
      AbstractValue value = evaluate(d);
      // Later rounds may only lose facts; meeting keeps the sequence monotone.
      if (values_[d].computed) value = values_[d].meet(value);
      // Widening: a value still changing after two rounds (a loop adding a stride, whose
      // carries would otherwise cost one round per bit) keeps only its low known bits,
      // the congruence that loops preserve.
      if (round >= 2 && values_[d].computed && !(value == values_[d])) value = widened(value);
      if (!(value == values_[d])) {
        values_[d] = value;
        changed = true;
      }
    }
  }
  for (std::uint32_t d : closure) {
    // Not settled within the bound (or never reached): claim nothing.
    if (changed || !values_[d].computed) values_[d] = AbstractValue::unknown();
    solved_[d] = true;
  }
}

AbstractValue FunctionFlow::valueOfDefinition(std::uint32_t definition) {
  solve(definition);
  return values_[definition];
}

AbstractValue FunctionFlow::valueOf(std::uint32_t instruction, const InstructionOperand& operand) {
  if (auto key = registerOf(operand)) {
    std::vector<std::uint32_t> reaching = reachingDefinitions(instruction, *key);
    if (reaching.empty()) return AbstractValue::unknown();
    AbstractValue value;
    for (std::uint32_t d : reaching) value = value.meet(valueOfDefinition(d));
    return value;
  }
  return operandValue(instruction, operand);
}

std::optional<InstructionOperand> FunctionFlow::baseRegisterOf(const InstructionOperand& address) const {
  if (address.shape != OperandShape::Address || address.symbol == kNoSymbol || !module_.symbols[address.symbol].isRegister()) {
    return std::nullopt;
  }
  // The register's spelling: from '[' to the offset or the closing bracket.
  // (Plain loops: find_first_of calls memchr on the set for every character.)
  std::string_view spelled = textOf(address.range);
  std::size_t start = 0;
  while (start < spelled.size() && (spelled[start] == '[' || spelled[start] == ' ' || spelled[start] == '\t')) ++start;
  std::size_t stop = start;
  auto ends = [](char c) { return c == '+' || c == ']' || c == ',' || c == ' ' || c == '\t'; };
  while (stop < spelled.size() && !ends(spelled[stop])) ++stop;
  if (start == spelled.size() || stop == spelled.size()) return std::nullopt;
  InstructionOperand base = address;
  base.shape = OperandShape::Register;
  base.range = {address.range.begin + static_cast<std::uint32_t>(start), address.range.begin + static_cast<std::uint32_t>(stop)};
  return base;
}

InstructionOperand FunctionFlow::negatedRegisterOf(const InstructionOperand& negated) const {
  InstructionOperand reg = negated;
  reg.shape = OperandShape::Register;
  std::string_view spelled = textOf(negated.range);
  std::size_t start = spelled.find_first_not_of("! \t");
  if (start != std::string_view::npos) reg.range.begin += static_cast<std::uint32_t>(start);
  return reg;
}

std::optional<InstructionOperand> FunctionFlow::guardRegisterOf(const InstructionSite& site) const {
  if (!site.isGuarded() || site.guardSymbol == kNoSymbol) return std::nullopt;
  std::string_view spelled = textOf(site.guard);
  std::size_t start = spelled.find_first_not_of("@! \t");
  if (start == std::string_view::npos) return std::nullopt;
  InstructionOperand guard;
  guard.shape = OperandShape::Register;
  guard.symbol = site.guardSymbol;
  guard.range = {site.guard.begin + static_cast<std::uint32_t>(start), site.guard.end};
  return guard;
}

AbstractValue FunctionFlow::addressOf(std::uint32_t instruction, const InstructionOperand& operand) {
  if (operand.shape != OperandShape::Address) return AbstractValue::unknown();
  AbstractValue base = AbstractValue::unknown();
  if (operand.symbol != kNoSymbol) {
    const Symbol& symbol = module_.symbols[operand.symbol];
    if (symbol.isRegister()) {
      auto asRegister = baseRegisterOf(operand);
      if (!asRegister) return AbstractValue::unknown();
      base = valueOf(instruction, *asRegister);
    } else {
      base = symbolAddress(operand.symbol);
    }
  } else {
    std::string_view spelled = textOf(operand.range);
    std::size_t start = spelled.find_first_not_of("[ \t");
    std::size_t stop = spelled.find_first_of("+]", start);
    if (start == std::string_view::npos || stop == std::string_view::npos) return AbstractValue::unknown();
    auto constant = evaluateConstant(spelled.substr(start, stop - start));
    if (!constant) return AbstractValue::unknown();
    base = AbstractValue::constant(static_cast<std::uint64_t>(*constant));
  }
  if (operand.offset.end == operand.offset.begin) return base;
  auto offset = evaluateConstant(textOf(operand.offset));
  KnownBits offsetBits = offset ? KnownBits::constant(static_cast<std::uint64_t>(*offset)) : KnownBits::unknown();
  AbstractValue value = base;
  value.bits = base.bits + offsetBits;
  if (value.base != kNoSymbol) value.offset = base.offset + offsetBits;
  return value;
}

FlowCache::FlowCache(std::string_view text, const Module& module) : text_(text), module_(module) {}
FlowCache::~FlowCache() = default;

ThreadModel& FlowCache::threadsOfFunction(std::size_t functionIndex) {
  if (threads_.size() < module_.functions.size()) threads_.resize(module_.functions.size());
  if (!threads_[functionIndex]) {
    throwIfStopped();
    threads_[functionIndex] =
        std::make_unique<ThreadModel>(text_, module_, flowOfFunction(functionIndex));
  }
  return *threads_[functionIndex];
}

FunctionResults& FlowCache::resultsOf(std::size_t functionIndex) {
  if (results_.size() < module_.functions.size()) results_.resize(module_.functions.size());
  if (!results_[functionIndex]) results_[functionIndex] = std::make_unique<FunctionResults>();
  return *results_[functionIndex];
}

FunctionFlow& FlowCache::flowOfFunction(std::size_t functionIndex) {
  if (flows_.size() < module_.functions.size()) flows_.resize(module_.functions.size());
  if (!flows_[functionIndex]) {
    throwIfStopped();
    flows_[functionIndex] = std::make_unique<FunctionFlow>(text_, module_, functionIndex);
  }
  return *flows_[functionIndex];
}

FunctionFlow* FlowCache::flowOfInstruction(std::uint32_t instruction) {
  // Functions are in source order and their instruction ranges ascend.
  const auto& functions = module_.functions;
  std::size_t low = 0, high = functions.size();
  while (low < high) {
    std::size_t middle = (low + high) / 2;
    const FunctionInfo& f = functions[middle];
    if (f.instructionCount > 0 && instruction >= f.firstInstruction + f.instructionCount) {
      low = middle + 1;
    } else if (f.instructionCount > 0 && instruction < f.firstInstruction) {
      high = middle;
    } else if (f.instructionCount > 0) {
      return &flowOfFunction(middle);
    } else {
      // An empty one (a prototype): search both sides linearly from here.
      for (std::size_t i = middle; i < high; ++i) {
        const FunctionInfo& g = functions[i];
        if (g.instructionCount > 0 && instruction >= g.firstInstruction && instruction < g.firstInstruction + g.instructionCount) {
          return &flowOfFunction(i);
        }
        if (g.instructionCount > 0 && g.firstInstruction > instruction) break;
      }
      for (std::size_t i = middle; i-- > low;) {
        const FunctionInfo& g = functions[i];
        if (g.instructionCount > 0 && instruction >= g.firstInstruction && instruction < g.firstInstruction + g.instructionCount) {
          return &flowOfFunction(i);
        }
        if (g.instructionCount > 0 && g.firstInstruction + g.instructionCount <= instruction) break;
      }
      return nullptr;
    }
  }
  return nullptr;
}

}  // namespace ptx::flow

#include "registers/CarriedValues.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "flow/ControlFlow.h"
#include "registers/InstructionClasses.h"
#include "registers/RegisterPressure.h"

namespace ptx::registers {
namespace {

bool isFloatType(const Symbol& symbol) { return infoOf(symbol.typeId).typeClass == TypeClass::Float; }

// The registers one instruction reads (sources, vector elements, address bases; wgmma's
// accumulators, which its destination operand also reads) and those it surely writes (an
// unguarded destination: a guarded one may keep the old value), appended to `reads` and
// `writes`.
void appendRegisterAccesses(const Module& module, flow::FunctionFlow& flow, std::uint32_t instruction,
                            std::vector<flow::RegisterKey>& reads, std::vector<flow::RegisterKey>& writes) {
  const InstructionSite& site = module.instructions[instruction];
  if (site.inDamagedCode) return;
  flow::OperandIndices written = flow.definedOperands(instruction);
  bool destinationRead = module.factsOf(site).does(kWarpgroupMma);
  auto visit = [&](const InstructionOperand& operand, std::uint32_t index, auto& self) -> void {
    if (operand.shape == OperandShape::Vector || operand.shape == OperandShape::PredicatePair) {
      for (std::uint32_t e = 0; e < operand.elementCount; ++e) {
        self(module.operands[operand.firstElement + e], operand.firstElement + e, self);
      }
      return;
    }
    if (operand.shape == OperandShape::Address) {
      if (auto base = flow.baseRegisterOf(operand)) self(*base, UINT32_MAX, self);
      return;
    }
    if (operand.shape != OperandShape::Register) return;
    auto key = flow.registerOf(operand);
    if (!key) return;
    bool isWritten = std::find(written.begin(), written.end(), index) != written.end();
    if (!isWritten || destinationRead) reads.push_back(*key);
    if (isWritten && !site.isGuarded()) writes.push_back(*key);
  };
  for (std::uint32_t o = site.firstOperand; o < site.firstOperand + site.operandCount; ++o) {
    visit(module.operands[o], o, visit);
  }
}

struct KeyHash {
  std::size_t operator()(const flow::RegisterKey& key) const {
    return std::hash<std::uint64_t>()((std::uint64_t{key.symbol} << 32) | key.index);
  }
};

// Instructions ptxas keeps in their order relative to each other: strong and atomic memory
// operations, fences and barriers (volatile loads stay in program order in its output).
bool keepsOrder(const Module& module, const InstructionSite& site) {
  const InstructionFacts& facts = module.factsOf(site);
  if (classOf(facts).has(kKeepsOrder)) return true;
  if (!facts.is(Family::Ld) && !facts.is(Family::St)) return false;
  return facts.hasAny({Modifier::Volatile, Modifier::Relaxed, Modifier::Acquire, Modifier::Release});
}

}  // namespace

FunctionRegisterAccesses registerAccessesOf(const Module& module, flow::FlowCache& flows, std::size_t function) {
  const FunctionInfo& info = module.functions[function];
  FunctionRegisterAccesses accesses;
  if (info.instructionCount == 0) return accesses;
  flow::FunctionFlow& flow = flows.flowOfFunction(function);
  accesses.starts_.reserve(2 * std::size_t{info.instructionCount} + 1);
  std::vector<flow::RegisterKey> reads, writes;  // One instruction's, reused.
  for (std::uint32_t i = info.firstInstruction; i < info.firstInstruction + info.instructionCount; ++i) {
    reads.clear();
    writes.clear();
    appendRegisterAccesses(module, flow, i, reads, writes);
    accesses.keys_.insert(accesses.keys_.end(), reads.begin(), reads.end());
    accesses.starts_.push_back(static_cast<std::uint32_t>(accesses.keys_.size()));
    accesses.keys_.insert(accesses.keys_.end(), writes.begin(), writes.end());
    accesses.starts_.push_back(static_cast<std::uint32_t>(accesses.keys_.size()));
  }
  return accesses;
}

CarriedLowerBound carriedLowerBound(const Module& module, flow::FlowCache& flows, std::size_t function,
                                    const FunctionRegisterAccesses& registerAccesses) {
  CarriedLowerBound bound;
  const FunctionInfo& info = module.functions[function];
  if (info.instructionCount == 0) return bound;
  flow::FunctionFlow& flow = flows.flowOfFunction(function);
  const std::vector<flow::BasicBlock>& blocks = flow.blocks();
  const std::vector<flow::NaturalLoop>& loops = flow.naturalLoops();
  if (loops.empty()) return bound;

  // Dense numbering of the floating-point registers, and what each instruction reads and
  // writes of them.
  std::unordered_map<flow::RegisterKey, std::uint32_t, KeyHash> number;
  std::vector<std::uint8_t> units;
  auto numbered = [&](std::span<const flow::RegisterKey> keys) {
    std::vector<std::uint32_t> numbers;
    for (const flow::RegisterKey& key : keys) {
      if (key.symbol == kNoSymbol || key.symbol >= module.symbols.size()) continue;
      const Symbol& symbol = module.symbols[key.symbol];
      if (!symbol.isRegister() || !isFloatType(symbol)) continue;
      auto [it, inserted] = number.try_emplace(key, static_cast<std::uint32_t>(units.size()));
      if (inserted) units.push_back(registerUnits(symbol));
      numbers.push_back(it->second);
    }
    return numbers;
  };
  struct Access {
    std::vector<std::uint32_t> reads, writes;
  };
  std::vector<Access> perInstruction(info.instructionCount);
  for (std::uint32_t i = info.firstInstruction; i < info.firstInstruction + info.instructionCount; ++i) {
    const RegisterAccesses& accesses = registerAccesses[i - info.firstInstruction];
    perInstruction[i - info.firstInstruction] = {numbered(accesses.reads), numbered(accesses.writes)};
  }
  if (units.empty()) return bound;
  // Backward liveness over the blocks, to a fixpoint.
  std::size_t words = (units.size() + 63) / 64;
  std::vector<std::vector<std::uint64_t>> liveIn(blocks.size(), std::vector<std::uint64_t>(words, 0));
  std::vector<std::uint64_t> live(words);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t b = static_cast<std::uint32_t>(blocks.size()); b-- > 0;) {
      std::fill(live.begin(), live.end(), 0);
      for (std::uint32_t s : blocks[b].successors) {
        for (std::size_t w = 0; w < words; ++w) live[w] |= liveIn[s][w];
      }
      for (std::uint32_t i = blocks[b].end; i-- > blocks[b].first;) {
        const Access& access = perInstruction[i - info.firstInstruction];
        for (std::uint32_t n : access.writes) live[n / 64] &= ~(std::uint64_t{1} << (n % 64));
        for (std::uint32_t n : access.reads) live[n / 64] |= std::uint64_t{1} << (n % 64);
      }
      if (live != liveIn[b]) {
        liveIn[b] = live;
        changed = true;
      }
    }
  }
  // At each loop's head: the live registers some block of the loop writes (values that change
  // from one iteration to the next; a value only read in the loop may be kept elsewhere).
  for (const flow::NaturalLoop& loop : loops) {
    std::vector<std::uint64_t> writtenInLoop(words, 0);
    for (std::uint32_t b = 0; b < blocks.size(); ++b) {
      if (!loop.body[b]) continue;
      for (std::uint32_t i = blocks[b].first; i < blocks[b].end; ++i) {
        for (std::uint32_t n : perInstruction[i - info.firstInstruction].writes) {
          writtenInLoop[n / 64] |= std::uint64_t{1} << (n % 64);
        }
      }
    }
    std::uint32_t total = 0;
    for (std::size_t w = 0; w < words; ++w) {
      std::uint64_t carried = liveIn[loop.head][w] & writtenInLoop[w];
      while (carried != 0) {
        unsigned bit = static_cast<unsigned>(std::countr_zero(carried));
        carried &= carried - 1;
        total += units[w * 64 + bit];
      }
    }
    if (total > bound.units) {
      bound.units = total;
      bound.headInstruction = blocks[loop.head].first;
    }
  }
  return bound;
}

OrderedLowerBound orderedLowerBound(const Module& module, flow::FlowCache& flows, std::size_t function,
                                    const FunctionRegisterAccesses& accesses) {
  OrderedLowerBound bound;
  const FunctionInfo& info = module.functions[function];
  if (info.instructionCount == 0) return bound;
  flow::FunctionFlow& flow = flows.flowOfFunction(function);
  std::vector<int> depends(info.instructionCount, -1);  // Latest ordered instruction it waits for.
  for (const flow::BasicBlock& block : flow.blocks()) {
    std::vector<std::uint32_t> ordered;  // Instructions of the block that keep their order.
    for (std::uint32_t i = block.first; i < block.end; ++i) {
      int latest = -1;
      for (const flow::RegisterKey& key : accesses[i - info.firstInstruction].reads) {
        for (std::uint32_t d : flow.reaching(i, key)) {
          std::uint32_t from = flow.definitions()[d].instruction;
          if (from >= block.first && from < i) latest = std::max(latest, depends[from - info.firstInstruction]);
        }
      }
      if (!module.instructions[i].inDamagedCode && keepsOrder(module, module.instructions[i])) {
        latest = static_cast<int>(ordered.size());
        ordered.push_back(i);
      }
      depends[i - info.firstInstruction] = latest;
    }
    if (ordered.size() < 2) continue;
    // A value an ordered instruction writes lives at least until the ordered instruction its
    // last use in the block waits for: across every ordered instruction between.
    std::vector<std::int64_t> delta(ordered.size() + 1, 0);
    for (std::uint32_t k = 0; k < ordered.size(); ++k) {
      std::uint32_t d = ordered[k];
      for (const flow::RegisterKey& key : accesses[d - info.firstInstruction].writes) {
        if (key.symbol >= module.symbols.size() || module.symbols[key.symbol].typeId == Modifier::Pred) continue;
        int last = -1;
        for (std::uint32_t u = d + 1; u < block.end; ++u) {
          const RegisterAccesses& use = accesses[u - info.firstInstruction];
          if (std::find(use.reads.begin(), use.reads.end(), key) != use.reads.end()) {
            last = std::max(last, depends[u - info.firstInstruction]);
          }
          if (std::find(use.writes.begin(), use.writes.end(), key) != use.writes.end()) break;
        }
        if (last > static_cast<int>(k)) {
          std::uint8_t units = registerUnits(module.symbols[key.symbol]);
          delta[k + 1] += units;
          delta[static_cast<std::size_t>(last) + 1] -= units;
        }
      }
    }
    std::int64_t live = 0;
    for (std::uint32_t k = 0; k < ordered.size(); ++k) {
      live += delta[k];
      if (live > static_cast<std::int64_t>(bound.units)) {
        bound.units = static_cast<std::uint32_t>(live);
        bound.instruction = ordered[k];
      }
    }
  }
  return bound;
}

}  // namespace ptx::registers

#include "registers/CarriedValues.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "registers/RegisterPressure.h"

namespace ptx::registers {
namespace {

bool isFloatType(std::string_view type) {
  return type == ".f32" || type == ".f64" || type == ".f16" || type == ".f16x2" || type == ".bf16" ||
         type == ".bf16x2";
}

struct KeyHash {
  std::size_t operator()(const flow::RegisterKey& key) const {
    return std::hash<std::uint64_t>()((std::uint64_t{key.symbol} << 32) | key.index);
  }
};

}  // namespace

CarriedLowerBound carriedLowerBound(std::string_view text, const Module& module, flow::FlowCache& flows,
                                    std::size_t function) {
  CarriedLowerBound bound;
  const FunctionInfo& info = module.functions[function];
  if (info.instructionCount == 0) return bound;
  flow::FunctionFlow& flow = flows.flowOfFunction(function);
  const std::vector<flow::BasicBlock>& blocks = flow.blocks();
  // Blocks that begin a loop: the target of an edge from a block at or after it, on a path
  // back to itself (a back edge of the source order, which is how compilers lay loops out).
  std::vector<std::uint32_t> heads;
  for (std::uint32_t b = 0; b < blocks.size(); ++b) {
    for (std::uint32_t s : blocks[b].successors) {
      if (s <= b && std::find(heads.begin(), heads.end(), s) == heads.end()) heads.push_back(s);
    }
  }
  if (heads.empty()) return bound;

  // Dense numbering of the floating-point registers; per block, those it reads before writing
  // (upward-exposed) and those it writes.
  std::unordered_map<flow::RegisterKey, std::uint32_t, KeyHash> number;
  std::vector<std::uint8_t> units;
  auto indexOf = [&](const flow::RegisterKey& key) -> std::optional<std::uint32_t> {
    if (key.symbol == kNoSymbol || key.symbol >= module.symbols.size()) return std::nullopt;
    const Symbol& symbol = module.symbols[key.symbol];
    if (!symbol.isRegister() || !isFloatType(symbol.type)) return std::nullopt;
    auto [it, inserted] = number.try_emplace(key, static_cast<std::uint32_t>(units.size()));
    if (inserted) units.push_back(registerUnits(symbol));
    return it->second;
  };
  struct Access {
    std::vector<std::uint32_t> reads, writes;
  };
  std::vector<Access> perInstruction(info.instructionCount);
  for (std::uint32_t i = info.firstInstruction; i < info.firstInstruction + info.instructionCount; ++i) {
    const InstructionSite& site = module.instructions[i];
    if (site.inDamagedCode) continue;
    Access& access = perInstruction[i - info.firstInstruction];
    std::vector<std::uint32_t> written = flow.definedOperands(i);
    std::string_view opcode = text.substr(site.opcode.begin, site.opcode.end - site.opcode.begin);
    // wgmma's accumulators are read and written by the same operand.
    bool destinationRead = opcode == "wgmma";
    auto visit = [&](const InstructionOperand& operand, std::uint32_t index, auto& self) -> void {
      if (operand.shape == OperandShape::Vector || operand.shape == OperandShape::PredicatePair) {
        for (std::uint32_t e = 0; e < operand.elementCount; ++e) {
          self(module.operands[operand.firstElement + e], operand.firstElement + e, self);
        }
        return;
      }
      if (operand.shape != OperandShape::Register) return;
      auto key = flow.registerOf(operand);
      if (!key) return;
      auto n = indexOf(*key);
      if (!n) return;
      bool isWritten = std::find(written.begin(), written.end(), index) != written.end();
      if (!isWritten || destinationRead) access.reads.push_back(*n);
      if (isWritten && !site.isGuarded()) access.writes.push_back(*n);
    };
    for (std::uint32_t o = site.firstOperand; o < site.firstOperand + site.operandCount; ++o) {
      visit(module.operands[o], o, visit);
    }
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
  // At each head: the live registers some block of the loop writes (values that change from
  // one iteration to the next; a value only read in the loop may be kept elsewhere).
  for (std::uint32_t head : heads) {
    std::vector<std::uint64_t> writtenInLoop(words, 0);
    for (std::uint32_t b = head; b < blocks.size(); ++b) {
      bool backToHead = std::find(blocks[b].successors.begin(), blocks[b].successors.end(), head) !=
                        blocks[b].successors.end();
      for (std::uint32_t i = blocks[b].first; i < blocks[b].end; ++i) {
        for (std::uint32_t n : perInstruction[i - info.firstInstruction].writes) {
          writtenInLoop[n / 64] |= std::uint64_t{1} << (n % 64);
        }
      }
      if (backToHead) break;  // The loop, laid out in source order, ends at its latch.
    }
    std::uint32_t total = 0;
    for (std::size_t w = 0; w < words; ++w) {
      std::uint64_t carried = liveIn[head][w] & writtenInLoop[w];
      while (carried != 0) {
        unsigned bit = static_cast<unsigned>(std::countr_zero(carried));
        carried &= carried - 1;
        total += units[w * 64 + bit];
      }
    }
    if (total > bound.units) {
      bound.units = total;
      bound.headInstruction = blocks[head].first;
    }
  }
  return bound;
}

namespace {

// Instructions ptxas keeps in their order relative to each other: strong and atomic memory
// operations, fences and barriers (volatile loads stay in program order in its output).
bool keepsOrder(std::string_view text, const Module& module, const InstructionSite& site) {
  auto textOf = [&](ByteRange r) { return text.substr(r.begin, r.end - r.begin); };
  std::string_view opcode = textOf(site.opcode);
  if (opcode == "atom" || opcode == "red" || opcode == "bar" || opcode == "barrier" || opcode == "membar" ||
      opcode == "fence") {
    return true;
  }
  if (opcode != "ld" && opcode != "st") return false;
  for (std::uint32_t m = site.firstModifier; m < site.firstModifier + site.modifierCount; ++m) {
    std::string_view modifier = textOf(module.modifiers[m]);
    if (modifier == ".volatile" || modifier == ".relaxed" || modifier == ".acquire" || modifier == ".release") {
      return true;
    }
  }
  return false;
}

}  // namespace

OrderedLowerBound orderedLowerBound(std::string_view text, const Module& module, flow::FlowCache& flows,
                                    std::size_t function) {
  OrderedLowerBound bound;
  const FunctionInfo& info = module.functions[function];
  if (info.instructionCount == 0) return bound;
  flow::FunctionFlow& flow = flows.flowOfFunction(function);
  std::vector<int> depends(info.instructionCount, -1);  // Latest ordered instruction it waits for.
  for (const flow::BasicBlock& block : flow.blocks()) {
    std::vector<std::uint32_t> ordered;  // Instructions of the block that keep their order.
    for (std::uint32_t i = block.first; i < block.end; ++i) {
      const InstructionSite& site = module.instructions[i];
      if (site.inDamagedCode) continue;
      int latest = -1;
      std::vector<std::uint32_t> written = flow.definedOperands(i);
      auto visit = [&](const InstructionOperand& operand, std::uint32_t index, auto& self) -> void {
        if (operand.shape == OperandShape::Vector) {
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
        if (std::find(written.begin(), written.end(), index) != written.end()) return;
        auto key = flow.registerOf(operand);
        if (!key) return;
        for (std::uint32_t d : flow.reachingDefinitions(i, *key)) {
          std::uint32_t from = flow.definitions()[d].instruction;
          if (from >= block.first && from < i) latest = std::max(latest, depends[from - info.firstInstruction]);
        }
      };
      for (std::uint32_t o = site.firstOperand; o < site.firstOperand + site.operandCount; ++o) {
        visit(module.operands[o], o, visit);
      }
      if (keepsOrder(text, module, site)) {
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
      const InstructionSite& site = module.instructions[d];
      for (std::uint32_t operand : flow.definedOperands(d)) {
        auto key = flow.registerOf(module.operands[operand]);
        if (!key || key->symbol >= module.symbols.size()) continue;
        const Symbol& symbol = module.symbols[key->symbol];
        if (symbol.type == ".pred") continue;
        int last = -1;
        for (std::uint32_t u = d + 1; u < block.end; ++u) {
          const InstructionSite& use = module.instructions[u];
          bool reads = false;
          for (std::uint32_t o = use.firstOperand; o < use.firstOperand + use.operandCount && !reads; ++o) {
            const InstructionOperand& candidate = module.operands[o];
            auto check = [&](const InstructionOperand& x) {
              auto k2 = flow.registerOf(x);
              return k2 && *k2 == *key;
            };
            if (candidate.shape == OperandShape::Vector) {
              for (std::uint32_t e = 0; e < candidate.elementCount && !reads; ++e) {
                reads = check(module.operands[candidate.firstElement + e]) &&
                        !(o == use.firstOperand && !flow.definedOperands(u).empty());
              }
            } else if (candidate.shape == OperandShape::Address) {
              auto base = flow.baseRegisterOf(candidate);
              reads = base && check(*base);
            } else if (o != use.firstOperand || flow.definedOperands(u).empty()) {
              reads = check(candidate);
            }
          }
          if (reads) last = std::max(last, depends[u - info.firstInstruction]);
          bool redefined = false;
          for (std::uint32_t w : flow.definedOperands(u)) {
            auto k2 = flow.registerOf(module.operands[w]);
            redefined = redefined || (k2 && *k2 == *key && !use.isGuarded());
          }
          if (redefined) break;
        }
        if (last > static_cast<int>(k)) {
          std::uint8_t units = registerUnits(symbol);
          delta[k + 1] += units;
          delta[static_cast<std::size_t>(last) + 1] -= units;
        }
      }
      (void)site;
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

// RegisterPressure: lowering, liveness and linear-scan allocation (see RegisterPressure.h).
#include "registers/RegisterPressure.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <unordered_map>

namespace ptx::registers {
namespace {

using flow::RegisterKey;

struct KeyHash {
  std::size_t operator()(const RegisterKey& key) const {
    return std::hash<std::uint64_t>()((std::uint64_t{key.symbol} << 32) | key.index);
  }
};

std::string_view slice(std::string_view text, ByteRange range) {
  if (range.begin > range.end || range.end > text.size()) return {};
  return text.substr(range.begin, range.end - range.begin);
}

// Instructions whose destination is also an input: the accumulator of wgmma (scale-d reads
// it). A guarded write, which keeps the old value too, is LoweredInstruction::guardedDefs.
bool destinationIsAlsoRead(std::string_view opcode) { return opcode == "wgmma"; }

class Lowerer {
 public:
  Lowerer(std::string_view text, const Module& module, flow::FunctionFlow& flow)
      : text_(text), module_(module), flow_(flow) {}

  LoweredFunction run() {
    const FunctionInfo& function = module_.functions[flow_.functionIndex()];
    kernel_ = module_.symbols[function.symbol].isEntry;
    for (SymbolId parameter : function.parameters) {
      if (parameter < module_.symbols.size() && module_.symbols[parameter].isRegister()) {
        out_.liveAtEntry.push_back(valueOf({parameter, 0}));
      }
    }
    std::uint32_t first = function.firstInstruction;
    out_.instructions.resize(function.instructionCount);
    for (std::uint32_t i = 0; i < function.instructionCount; ++i) lowerInstruction(first + i, out_.instructions[i]);
    for (std::uint32_t v : out_.liveAtEntry) cheapDefinitions_[v] = false;
    for (std::uint32_t v = 0; v < out_.values.size(); ++v) {
      auto it = cheapDefinitions_.find(v);
      out_.values[v].rematerializable = it != cheapDefinitions_.end() && it->second && !out_.values[v].predicate;
    }
    return std::move(out_);
  }

 private:
  std::uint32_t valueOf(RegisterKey key) {
    auto [it, inserted] = ids_.try_emplace(key, static_cast<std::uint32_t>(out_.values.size()));
    if (inserted) {
      LoweredValue value;
      value.reg = key;
      const Symbol& symbol = module_.symbols[key.symbol];
      value.predicate = symbol.type == ".pred";
      value.units = registerUnits(symbol);
      out_.values.push_back(value);
    }
    return it->second;
  }

  void addRegister(const InstructionOperand& operand, std::vector<std::uint32_t>& into) {
    if (auto key = flow_.registerOf(operand)) into.push_back(valueOf(*key));
  }

  // Every register an operand reads: itself, a vector's elements, an address's base.
  void addReads(const InstructionOperand& operand, std::vector<std::uint32_t>& into) {
    switch (operand.shape) {
      case OperandShape::Register:
        addRegister(operand, into);
        break;
      case OperandShape::Vector:
      case OperandShape::PredicatePair:
        for (std::uint32_t e = 0; e < operand.elementCount; ++e) {
          addReads(module_.operands[operand.firstElement + e], into);
        }
        break;
      case OperandShape::Address:
        if (auto base = flow_.baseRegisterOf(operand)) addRegister(*base, into);
        break;
      default:
        break;
    }
  }

  void lowerInstruction(std::uint32_t index, LoweredInstruction& out) {
    const InstructionSite& site = module_.instructions[index];
    if (site.inDamagedCode) return;
    std::vector<std::uint32_t> written = flow_.definedOperands(index);
    for (std::uint32_t operand : written) addRegister(module_.operands[operand], out.defs);
    bool cheap = !site.isGuarded() && isCheapDefinition(site);
    for (std::uint32_t d : out.defs) {
      auto [it, inserted] = cheapDefinitions_.try_emplace(d, cheap);
      if (!inserted) it->second = it->second && cheap;
    }
    bool readsDestination = destinationIsAlsoRead(slice(text_, site.opcode));
    for (std::uint32_t o = site.firstOperand; o < site.firstOperand + site.operandCount; ++o) {
      const InstructionOperand& operand = module_.operands[o];
      bool isDestination = std::find(written.begin(), written.end(), o) != written.end();
      bool destinationVector = !written.empty() && o == site.firstOperand && !site.isCall &&
                               (operand.shape == OperandShape::Vector || operand.shape == OperandShape::PredicatePair);
      if ((isDestination || destinationVector) && !readsDestination) continue;
      addReads(operand, out.uses);
    }
    if (auto guard = flow_.guardRegisterOf(site)) {
      addRegister(*guard, out.uses);
      out.guardedDefs = !out.defs.empty();
    }
  }

  // ld.param of a kernel parameter (constant bank), or a mov of an immediate or of a
  // variable's address: nothing a register must carry from the definition to the uses.
  bool isCheapDefinition(const InstructionSite& site) const {
    std::string_view opcode = slice(text_, site.opcode);
    if (site.operandCount != 2) return false;
    const InstructionOperand& source = module_.operands[site.firstOperand + 1];
    if (opcode == "ld") {
      if (!kernel_ || site.modifierCount == 0) return false;
      return slice(text_, module_.modifiers[site.firstModifier]) == ".param";
    }
    if (opcode == "mov") {
      if (source.shape == OperandShape::Register) return false;
      if (source.shape == OperandShape::Symbol || source.shape == OperandShape::Expression) {
        // An immediate or an address; special registers (%tid.x...) need an S2R and a register.
        std::string_view spelled = slice(text_, source.range);
        return !spelled.starts_with("%");
      }
    }
    return false;
  }

  std::string_view text_;
  const Module& module_;
  flow::FunctionFlow& flow_;
  bool kernel_ = false;
  std::unordered_map<std::uint32_t, bool> cheapDefinitions_;
  LoweredFunction out_;
  std::unordered_map<RegisterKey, std::uint32_t, KeyHash> ids_;
};

// A fixed-size set of value ids.
class ValueSet {
 public:
  explicit ValueSet(std::size_t size = 0) : words_((size + 63) / 64, 0) {}
  void insert(std::uint32_t v) { words_[v / 64] |= std::uint64_t{1} << (v % 64); }
  void erase(std::uint32_t v) { words_[v / 64] &= ~(std::uint64_t{1} << (v % 64)); }
  bool contains(std::uint32_t v) const { return (words_[v / 64] >> (v % 64)) & 1; }
  // this |= other; returns whether anything was added.
  bool unite(const ValueSet& other) {
    bool changed = false;
    for (std::size_t w = 0; w < words_.size(); ++w) {
      std::uint64_t merged = words_[w] | other.words_[w];
      changed = changed || merged != words_[w];
      words_[w] = merged;
    }
    return changed;
  }
  template <typename F>
  void forEach(F&& f) const {
    for (std::size_t w = 0; w < words_.size(); ++w) {
      for (std::uint64_t bits = words_[w]; bits != 0; bits &= bits - 1) {
        f(static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits))));
      }
    }
  }
  bool operator==(const ValueSet&) const = default;

 private:
  std::vector<std::uint64_t> words_;
};

// Blocks on a cycle of the CFG (Tarjan's strongly connected components).
std::vector<bool> blocksInLoops(const std::vector<flow::BasicBlock>& blocks) {
  std::size_t n = blocks.size();
  std::vector<int> index(n, -1), low(n, 0);
  std::vector<bool> onStack(n, false), inLoop(n, false);
  std::vector<std::uint32_t> stack;
  int counter = 0;
  // Iterative DFS: (block, next successor position).
  std::vector<std::pair<std::uint32_t, std::size_t>> dfs;
  for (std::uint32_t root = 0; root < n; ++root) {
    if (index[root] >= 0) continue;
    dfs.push_back({root, 0});
    index[root] = low[root] = counter++;
    stack.push_back(root);
    onStack[root] = true;
    while (!dfs.empty()) {
      auto& [block, next] = dfs.back();
      if (next < blocks[block].successors.size()) {
        std::uint32_t successor = blocks[block].successors[next++];
        if (successor == block) inLoop[block] = true;
        if (index[successor] < 0) {
          index[successor] = low[successor] = counter++;
          stack.push_back(successor);
          onStack[successor] = true;
          dfs.push_back({successor, 0});
        } else if (onStack[successor]) {
          low[block] = std::min(low[block], index[successor]);
        }
        continue;
      }
      std::uint32_t done = block;
      dfs.pop_back();
      if (!dfs.empty()) low[dfs.back().first] = std::min(low[dfs.back().first], low[done]);
      if (low[done] == index[done]) {
        std::vector<std::uint32_t> component;
        std::uint32_t member;
        do {
          member = stack.back();
          stack.pop_back();
          onStack[member] = false;
          component.push_back(member);
        } while (member != done);
        if (component.size() > 1) {
          for (std::uint32_t b : component) inLoop[b] = true;
        }
      }
    }
  }
  return inLoop;
}

// The register file as a bit mask (256 registers: R0..R254 and RZ's slot).
using RegisterMask = std::array<std::uint64_t, 4>;

// First-fit allocation on exact lifetimes: values in order of their first live point (wider
// ones first at a tie), each given the lowest slot aligned to its size (pairs at even,
// quads at multiples of four registers) that is free at every point where the value is live,
// lifetime holes included. For code that is almost SSA, as compiler-generated PTX is, this
// order colours the interference graph with close to max-live registers, as a graph
// colouring would, at a cost linear in the summed lifetimes. Returns the registers used
// (highest slot + 1) and the units that did not fit under the budget (spilled).
std::pair<std::uint32_t, std::uint32_t> allocate(const LoweredFunction& lowered,
                                                 const std::vector<std::vector<std::uint32_t>>& pointsOf,
                                                 const std::vector<std::uint32_t>& firstPoint,
                                                 std::size_t pointCount, std::uint32_t budget) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t v = 0; v < pointsOf.size(); ++v) {
    if (!pointsOf[v].empty() && !lowered.values[v].predicate) order.push_back(v);
  }
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (firstPoint[a] != firstPoint[b]) return firstPoint[a] < firstPoint[b];
    if (lowered.values[a].units != lowered.values[b].units) return lowered.values[a].units > lowered.values[b].units;
    return a < b;
  });
  // R1 holds the stack pointer in every function (SASS starts each kernel with
  // `MOV R1, c[0x0][0x28]`), so it is never allocated and counts in ptxas's figure; a
  // 64-bit value therefore takes R2:R3 at the earliest, and R0 is left to a 32-bit one.
  constexpr std::uint32_t kStackPointer = 1;
  RegisterMask reserved{};
  reserved[0] |= std::uint64_t{1} << kStackPointer;
  std::vector<RegisterMask> busy(pointCount, reserved);
  std::uint32_t top = kStackPointer + 1;
  std::uint32_t spilled = 0;
  std::uint32_t limit = std::min<std::uint32_t>(budget, 255);
  for (std::uint32_t v : order) {
    RegisterMask taken{};
    for (std::uint32_t point : pointsOf[v]) {
      for (std::size_t w = 0; w < 4; ++w) taken[w] |= busy[point][w];
    }
    std::uint32_t units = lowered.values[v].units;
    auto isFree = [&](std::uint32_t slot) {
      for (std::uint32_t u = slot; u < slot + units; ++u) {
        if ((taken[u / 64] >> (u % 64)) & 1) return false;
      }
      return true;
    };
    std::optional<std::uint32_t> slot;
    for (std::uint32_t candidate = 0; candidate + units <= limit; candidate += units) {
      if (isFree(candidate)) {
        slot = candidate;
        break;
      }
    }
    if (!slot) {
      spilled += units;
      continue;
    }
    for (std::uint32_t point : pointsOf[v]) {
      for (std::uint32_t u = *slot; u < *slot + units; ++u) busy[point][u / 64] |= std::uint64_t{1} << (u % 64);
    }
    top = std::max(top, *slot + units);
  }
  return {top, spilled};
}

}  // namespace

std::optional<std::uint64_t> functionDirective(const FunctionInfo& function, std::string_view name,
                                               std::size_t position) {
  for (const HeaderDirective& directive : function.directives) {
    if (directive.name != name) continue;
    if (position >= directive.values.size()) return std::nullopt;
    return directive.values[position];
  }
  return std::nullopt;
}

std::optional<std::uint64_t> declaredThreadsPerBlock(const FunctionInfo& function) {
  for (std::string_view name : {".reqntid", ".maxntid"}) {
    if (auto x = functionDirective(function, name, 0)) {
      return *x * functionDirective(function, name, 1).value_or(1) * functionDirective(function, name, 2).value_or(1);
    }
  }
  return std::nullopt;
}

std::uint8_t registerUnits(const Symbol& symbol) {
  std::uint32_t bytes = flow::typeSizeInBytes(symbol.type).value_or(4);
  return bytes >= 16 ? 4 : bytes == 8 ? 2 : 1;
}

LoweredFunction lowerFunction(std::string_view text, const Module& module, flow::FunctionFlow& flow) {
  return Lowerer(text, module, flow).run();
}

std::uint32_t launchBoundsRegisterCeiling(std::uint32_t threadsPerBlock, std::uint32_t minBlocksPerSm) {
  if (threadsPerBlock == 0) return 255;
  std::uint32_t warps = (threadsPerBlock + 31) / 32;
  std::uint32_t perSubPartition = (std::max<std::uint32_t>(minBlocksPerSm, 1) * warps + 3) / 4;
  if (perSubPartition == 0) return 255;
  std::uint32_t perWarp = 16384 / perSubPartition / 256 * 256;
  return std::min<std::uint32_t>(255, perWarp / 32);
}

std::vector<RegisterEstimate> estimateRegisters(std::string_view text, const Module& module, flow::FlowCache& flows) {
  std::vector<RegisterEstimate> estimates;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (function.bodyScope == kNoScope || function.instructionCount == 0 || function.hasSyntaxErrors) continue;
    estimates.push_back(estimateFunction(text, module, flows, f));
  }
  return estimates;
}

RegisterEstimate estimateFunction(std::string_view text, const Module& module, flow::FlowCache& flows, std::size_t f) {
  const FunctionInfo& function = module.functions[f];
  flow::FunctionFlow& flow = flows.flowOfFunction(f);
  LoweredFunction lowered = lowerFunction(text, module, flow);
  std::size_t valueCount = lowered.values.size();
  const std::vector<flow::BasicBlock>& blocks = flow.blocks();
  std::uint32_t first = function.firstInstruction;

  // Liveness: live-in of each block to a fixpoint, walking blocks backward.
  std::vector<ValueSet> liveIn(blocks.size(), ValueSet(valueCount));
  std::vector<ValueSet> liveOut(blocks.size(), ValueSet(valueCount));
  auto transfer = [&](std::uint32_t b, ValueSet live, auto&& at) {
    for (std::uint32_t i = blocks[b].end; i-- > blocks[b].first;) {
      const LoweredInstruction& instruction = lowered.instructions[i - first];
      at(i, live);
      if (!instruction.guardedDefs) {
        for (std::uint32_t d : instruction.defs) live.erase(d);
      }
      for (std::uint32_t u : instruction.uses) {
        if (!lowered.values[u].rematerializable) live.insert(u);
      }
    }
    return live;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t b = static_cast<std::uint32_t>(blocks.size()); b-- > 0;) {
      ValueSet out(valueCount);
      for (std::uint32_t s : blocks[b].successors) out.unite(liveIn[s]);
      liveOut[b] = out;
      ValueSet in = transfer(b, out, [](std::uint32_t, const ValueSet&) {});
      if (!(in == liveIn[b])) {
        liveIn[b] = in;
        changed = true;
      }
    }
  }

  RegisterEstimate estimate;
  estimate.function = f;
  estimate.liveUnits.assign(function.instructionCount, 0);
  estimate.inLoop.assign(function.instructionCount, false);
  std::vector<bool> loopBlocks = blocksInLoops(blocks);
  // Two allocation points per instruction: before it (2i) and after it (2i + 1).
  // (Points are recorded in walk order; the allocation only needs each value's first.)
  std::vector<std::vector<std::uint32_t>> pointsOf(valueCount);
  std::vector<std::uint32_t> firstPoint(valueCount, UINT32_MAX);
  auto touch = [&](std::uint32_t v, std::uint32_t point) {
    pointsOf[v].push_back(point);
    firstPoint[v] = std::min(firstPoint[v], point);
  };
  for (std::uint32_t v : lowered.liveAtEntry) touch(v, 0);
  for (std::uint32_t b = 0; b < blocks.size(); ++b) {
    transfer(b, liveOut[b], [&](std::uint32_t i, const ValueSet& liveAfter) {
      const LoweredInstruction& instruction = lowered.instructions[i - first];
      std::uint32_t point = i - first;
      // Two points around the instruction: before it (its operands, a rematerialized value
      // included, and what lives past it) and after it (what lives on, and its results). A
      // result may take the register of an operand that dies here, so the pressure at the
      // instruction is the larger of the two, not their union.
      ValueSet before = liveAfter;
      if (!instruction.guardedDefs) {
        for (std::uint32_t d : instruction.defs) before.erase(d);
      }
      for (std::uint32_t u : instruction.uses) before.insert(u);
      ValueSet after = liveAfter;
      for (std::uint32_t d : instruction.defs) {
        if (!lowered.values[d].rematerializable) after.insert(d);
      }
      auto count = [&](const ValueSet& set, std::uint32_t& predicates, std::uint32_t allocationPoint) {
        std::uint32_t units = 0;
        set.forEach([&](std::uint32_t v) {
          touch(v, allocationPoint);
          if (lowered.values[v].predicate) {
            ++predicates;
          } else {
            units += lowered.values[v].units;
          }
        });
        return units;
      };
      std::uint32_t predicatesBefore = 0;
      std::uint32_t predicatesAfter = 0;
      std::uint32_t unitsBefore = count(before, predicatesBefore, 2 * point);
      std::uint32_t unitsAfter = count(after, predicatesAfter, 2 * point + 1);
      std::uint32_t units = std::max(unitsBefore, unitsAfter);
      std::uint32_t predicates = std::max(predicatesBefore, predicatesAfter);
      const ValueSet& occupied = unitsBefore >= unitsAfter ? before : after;
      estimate.liveUnits[point] = static_cast<std::uint16_t>(std::min<std::uint32_t>(units, 0xFFFF));
      estimate.inLoop[point] = loopBlocks[b];
      estimate.maxLivePredicates = std::max(estimate.maxLivePredicates, predicates);
      if (units > estimate.maxLiveUnits || (units == estimate.maxLiveUnits && estimate.liveAtPeak.empty())) {
        estimate.maxLiveUnits = units;
        estimate.peakInstruction = i;
        estimate.liveAtPeak.clear();
        occupied.forEach([&](std::uint32_t v) {
          if (!lowered.values[v].predicate) estimate.liveAtPeak.push_back(lowered.values[v].reg);
        });
      }
    });
  }
  std::stable_sort(estimate.liveAtPeak.begin(), estimate.liveAtPeak.end(), [&](RegisterKey a, RegisterKey b) {
    return registerUnits(module.symbols[a.symbol]) > registerUnits(module.symbols[b.symbol]);
  });

  // The budget: .maxnreg, else the launch-bounds ceiling, else the architectural 255.
  estimate.budget = 255;
  estimate.budgetReason = "255 per thread";
  if (auto maxnreg = functionDirective(function, ".maxnreg")) {
    estimate.budget = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(*maxnreg, 24, 255));
    estimate.budgetReason = ".maxnreg " + std::to_string(*maxnreg);
  } else if (auto threads = functionDirective(function, ".maxntid")) {
    std::uint64_t y = functionDirective(function, ".maxntid", 1).value_or(1);
    std::uint64_t z = functionDirective(function, ".maxntid", 2).value_or(1);
    std::uint64_t blocksPerSm = functionDirective(function, ".minnctapersm").value_or(1);
    std::uint64_t total = std::min<std::uint64_t>(*threads * y * z, 1024);
    estimate.budget = launchBoundsRegisterCeiling(static_cast<std::uint32_t>(total),
                                                  static_cast<std::uint32_t>(std::min<std::uint64_t>(blocksPerSm, 32)));
    estimate.budgetReason = ".maxntid " + std::to_string(total) + " / .minnctapersm " + std::to_string(blocksPerSm);
  }

  auto [top, spilled] = allocate(lowered, pointsOf, firstPoint, 2 * std::size_t{function.instructionCount},
                                 estimate.budget);
  estimate.registers = top;
  // `setmaxnreg.inc/.dec N` (sm_90a warp specialization) resizes the warpgroup's registers
  // at run time: the function is allocated, and ptxas reports, the largest N it asks for.
  for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
    const InstructionSite& site = module.instructions[i];
    if (slice(text, site.opcode) != "setmaxnreg" || site.operandCount == 0) continue;
    std::string_view count = slice(text, module.operands[site.firstOperand].range);
    std::uint32_t requested = 0;
    auto [end, error] = std::from_chars(count.data(), count.data() + count.size(), requested);
    if (error == std::errc() && end == count.data() + count.size() && requested <= 256) {
      estimate.registers = std::max(estimate.registers, requested);
    }
  }
  estimate.spilledUnits = spilled;
  return estimate;
}

}  // namespace ptx::registers

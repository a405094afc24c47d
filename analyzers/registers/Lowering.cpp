// Lowering: instructions to the values they read and write (see Lowering.h).
#include "registers/Lowering.h"

#include <algorithm>
#include <unordered_map>

#include "registers/Budget.h"
#include "registers/InstructionClasses.h"

namespace ptx::registers {
namespace {

using flow::RegisterKey;

struct KeyHash {
  std::size_t operator()(const RegisterKey& key) const {
    return std::hash<std::uint64_t>()((std::uint64_t{key.symbol} << 32) | key.index);
  }
};

// Instructions whose destination is also an input: the accumulator of wgmma (scale-d reads
// it). A guarded write, which keeps the old value too, is LoweredInstruction::guardedDefs.
bool destinationIsAlsoRead(const InstructionFacts& facts) { return facts.does(kWarpgroupMma); }

// The text of a range; empty when the range does not fit the text.
std::string_view slice(std::string_view text, ByteRange range) {
  if (range.begin > range.end || range.end > text.size()) return {};
  return text.substr(range.begin, range.end - range.begin);
}

class Lowerer {
 public:
  Lowerer(std::string_view text, const Module& module, flow::FunctionFlow& flow)
      : text_(text), module_(module), flow_(flow) {}

  LoweredFunction run() {
    const FunctionInfo& function = module_.functions[flow_.functionIndex()];
    kernel_ = module_.symbols[function.symbol].isEntry;
    sm_ = compiledArchitecture(text_, module_);
    for (SymbolId parameter : function.parameters) {
      if (parameter < module_.symbols.size() && module_.symbols[parameter].isRegister()) {
        out_.liveAtEntry.push_back(valueOf({parameter, 0}));
      }
    }
    std::uint32_t first = function.firstInstruction;
    out_.instructions.resize(function.instructionCount);
    for (std::uint32_t i = 0; i < function.instructionCount; ++i) lowerInstruction(first + i, out_.instructions[i]);
    cheapDefinitions_.resize(out_.values.size(), kNoDefinition);
    literalDefinitions_.resize(out_.values.size(), kNoDefinition);
    for (std::uint32_t v : out_.liveAtEntry) cheapDefinitions_[v] = 0;
    for (std::uint32_t v = 0; v < out_.values.size(); ++v) {
      if (out_.values[v].scratch) continue;
      out_.values[v].rematerializable = cheapDefinitions_[v] == 1 && !out_.values[v].predicate;
    }
    // A copy of a cheap value is as cheap (cvta.to.global of a kernel parameter changes no bits
    // on the 64-bit targets ptxas 13 compiles for).
    for (bool changed = true; changed;) {
      changed = false;
      for (std::uint32_t value = 0; value < facts_.size(); ++value) {
        const ValueFacts& fact = facts_[value];
        if (fact.copyOf == kNoValue || out_.values[value].rematerializable || out_.values[value].predicate) continue;
        if (out_.values[fact.copyOf].rematerializable && out_.values[fact.copyOf].units == out_.values[value].units) {
          out_.values[value].rematerializable = true;
          changed = true;
        }
      }
    }
    materializeSecondImmediates();
    narrowWindowPointers();
    foldAddressOffsets();
    foldWideMultiplies();
    // A cheap value some instruction needs in general registers (an address of memory on
    // sm_80 and later, store data) is materialized once, early, and kept: ptxas loads
    // `MOV R2, c[0x0][0x160]` at the top and reuses the pair, rather than reloading it at
    // every use.
    {
      std::vector<bool> materialized(out_.values.size(), false);
      for (const LoweredInstruction& instruction : out_.instructions) {
        for (std::size_t k = 0; k < instruction.uses.size(); ++k) {
          if (instruction.materializes(k)) materialized[instruction.uses[k]] = true;
        }
      }
      for (std::uint32_t v = 0; v < out_.values.size(); ++v) {
        if (materialized[v] && out_.values[v].rematerializable && !out_.values[v].scratch) {
          out_.values[v].rematerializable = false;
        }
      }
    }
    markRecomputable();
    // Elements nobody reads are not written (a texture fetch's write mask) and need no place
    // in their group.
    for (std::vector<std::uint32_t>& group : out_.vectorGroups) {
      std::erase_if(group, [&](std::uint32_t v) { return v != kNoValue && facts_[v].reads == 0; });
    }
    return std::move(out_);
  }

  // `add.s64 %rd2, %rd1, 16` whose result is only ever an address base: ptxas folds the
  // constant into the addressing mode ([R2.64+0x10]), so the result needs no register of its
  // own; its readers read the base instead.
  void foldAddressOffsets() {
    std::vector<std::uint32_t> baseOf(out_.values.size(), kNoValue);
    for (std::uint32_t value = 0; value < facts_.size(); ++value) {
      const ValueFacts& fact = facts_[value];
      if (fact.definitions == 1 && fact.offsetOf != kNoValue && fact.reads == fact.addressReads && fact.reads > 0 &&
          facts_[fact.offsetOf].definitions <= 1) {
        baseOf[value] = fact.offsetOf;
      }
    }
    auto resolve = [&](std::uint32_t v) {
      for (int hops = 0; hops < 64 && baseOf[v] != kNoValue; ++hops) v = baseOf[v];
      return v;
    };
    for (std::uint32_t i = 0; i < out_.instructions.size(); ++i) {
      LoweredInstruction& instruction = out_.instructions[i];
      if (instruction.defs.size() == 1 && baseOf[instruction.defs[0]] != kNoValue) {
        instruction.defs.clear();
        instruction.uses.clear();
        instruction.materializedUses = 0;
        continue;
      }
      for (std::uint32_t& u : instruction.uses) u = resolve(u);
    }
  }

  // `mul.wide.u32 %rd10, %r10, 4` read only by 64-bit adds: ptxas fuses each add with it
  // into one IMAD.WIDE (R2 = R7 * 4 + R2), so the product never occupies a pair; the adds
  // read its 32-bit factor instead. Where an add's other operand comes from the constant bank
  // (a kernel parameter), that operand takes IMAD's one constant slot and the immediate needs
  // a register (IMAD.WIDE R2, R0, R7, c[0x0][0x160] with R7 = 4), loaded once where the
  // multiply was and kept to its last such add.
  void foldWideMultiplies() {
    std::vector<bool> fold(out_.values.size(), false);
    for (std::uint32_t value = 0; value < facts_.size(); ++value) {
      const ValueFacts& fact = facts_[value];
      if (fact.definitions != 1 || fact.wideOf == kNoValue || fact.reads == 0 || fact.reads != fact.addReads) continue;
      if (facts_[fact.wideOf].definitions > 1) continue;
      fold[value] = true;
    }
    auto readsConstant = [&](const LoweredInstruction& instruction) {
      return std::any_of(instruction.uses.begin(), instruction.uses.end(),
                         [&](std::uint32_t u) { return !fold[u] && out_.values[u].rematerializable; });
    };
    // The immediate's register, per folded product that some add needs it for.
    std::vector<std::uint32_t> immediateOf(out_.values.size(), kNoValue);
    for (const LoweredInstruction& instruction : out_.instructions) {
      if (!readsConstant(instruction)) continue;
      for (std::uint32_t u : instruction.uses) {
        if (!fold[u] || immediateOf[u] != kNoValue) continue;
        immediateOf[u] = static_cast<std::uint32_t>(out_.values.size());
        LoweredValue immediate;
        immediate.scratch = true;
        out_.values.push_back(immediate);
        facts_.emplace_back();
      }
    }
    for (LoweredInstruction& instruction : out_.instructions) {
      if (instruction.defs.size() == 1 && fold[instruction.defs[0]]) {
        std::uint32_t product = instruction.defs[0];
        instruction.defs.clear();
        instruction.uses.clear();
        instruction.materializedUses = 0;
        if (immediateOf[product] != kNoValue) instruction.defs.push_back(immediateOf[product]);
        continue;
      }
      bool constant = readsConstant(instruction);
      for (std::size_t k = 0, n = instruction.uses.size(); k < n; ++k) {
        std::uint32_t u = instruction.uses[k];
        if (!fold[u]) continue;
        instruction.uses[k] = facts_[u].wideOf;
        if (constant) instruction.addUse(immediateOf[u], false);
      }
    }
  }

  std::uint32_t valueOf(RegisterKey key) {
    auto [it, inserted] = ids_.try_emplace(key, static_cast<std::uint32_t>(out_.values.size()));
    if (inserted) {
      LoweredValue value;
      value.reg = key;
      const Symbol& symbol = module_.symbols[key.symbol];
      value.predicate = symbol.typeId == Modifier::Pred;
      value.units = registerUnits(symbol);
      out_.values.push_back(value);
      facts_.emplace_back();
    }
    return it->second;
  }

  void addRegister(const InstructionOperand& operand, std::vector<std::uint32_t>& into) {
    if (auto key = flow_.registerOf(operand)) into.push_back(valueOf(*key));
  }

  void addUse(const InstructionOperand& operand, LoweredInstruction& out, bool needsRegister) {
    if (auto key = flow_.registerOf(operand)) {
      out.addUse(valueOf(*key), needsRegister);
    }
  }

  // Every register an operand reads: itself, a vector's elements, an address's base. Whether
  // a cheap value (an immediate, a parameter, a constant-bank word) read here needs a general
  // register: an ALU instruction reads it as an immediate or a constant-bank operand; store data, vector elements and
  // the operands of memory, texture, matrix and call instructions must be in general registers; a global, local or
  // generic address base must be in a register pair from sm_80 on (sm_75 addresses [UR+imm] directly).
  void addReads(const InstructionOperand& operand, const InstructionSite& site, bool aluInstruction,
                LoweredInstruction& out) {
    switch (operand.shape) {
      case OperandShape::Register:
        addUse(operand, out, !aluInstruction);
        break;
      case OperandShape::Vector:
      case OperandShape::PredicatePair:
        for (std::uint32_t e = 0; e < operand.elementCount; ++e) {
          const InstructionOperand& element = module_.operands[operand.firstElement + e];
          if (element.shape == OperandShape::Register) addUse(element, out, true);
        }
        break;
      case OperandShape::Address:
        if (auto base = flow_.baseRegisterOf(operand)) addUse(*base, out, sm_ >= 80 && isGlobalOrGenericAccess(site));
        // A texture or surface instruction's coordinates (and a texture or sampler held in a
        // register) are read from general registers.
        for (std::uint32_t e = 0; e < readTupleElements(site, operand); ++e) {
          const InstructionOperand& element = module_.operands[operand.firstTupleElement + e];
          if (element.shape == OperandShape::Register) addUse(element, out, true);
        }
        break;
      default:
        break;
    }
  }

  // The elements of a .v2/.v4 operand of a memory or texture instruction occupy consecutive
  // registers from an aligned one in SASS (LDG.E.128 R4 writes R4..R7).
  void recordVectorGroups(const InstructionSite& site) {
    for (std::uint32_t o = site.firstOperand; o < site.firstOperand + site.operandCount; ++o) {
      const InstructionOperand& operand = module_.operands[o];
      if (operand.shape == OperandShape::Address && operand.tupleElementCount >= 2) {
        // The coordinates, consecutive too (TEX R4, R4, ... reads R4:R5); immediates are not
        // registers and drop out.
        std::vector<std::uint32_t> group;
        for (std::uint32_t e = 0; e < readTupleElements(site, operand); ++e) {
          const InstructionOperand& element = module_.operands[operand.firstTupleElement + e];
          if (element.shape != OperandShape::Register) continue;
          if (auto key = flow_.registerOf(element)) group.push_back(valueOf(*key));
        }
        if (group.size() >= 2) out_.vectorGroups.push_back(std::move(group));
        continue;
      }
      if (operand.shape != OperandShape::Vector || operand.elementCount < 2) continue;
      std::vector<std::uint32_t> group;
      for (std::uint32_t e = 0; e < operand.elementCount; ++e) {
        const InstructionOperand& element = module_.operands[operand.firstElement + e];
        auto key = element.shape == OperandShape::Register ? flow_.registerOf(element) : std::nullopt;
        group.push_back(key ? valueOf(*key) : kNoValue);
      }
      out_.vectorGroups.push_back(std::move(group));
    }
  }

  // How many of a texture address tuple's elements the fetch reads: a coordinate vector longer
  // than the geometry takes (`tex.2d.v4.f32.f32 {..}, [tex, {%f3, %f6, %f7, %f8}]`, the .v4
  // form older compilers emit) is read up to the geometry's coordinates, the rest ignored
  // (SASS: `TEX ... R4, R4, ... 2D` reads R4:R5 only).
  std::uint32_t readTupleElements(const InstructionSite& site, const InstructionOperand& operand) const {
    const InstructionFacts& facts = module_.factsOf(site);
    if (!classOf(facts).has(kTextureFetch)) return operand.tupleElementCount;
    std::uint32_t geometry = textureCoordinates(facts);
    if (geometry == 0) return operand.tupleElementCount;
    // The coordinates are the elements inside the braces; any before them (a sampler) stay.
    std::string_view address = slice(text_, operand.range);
    std::size_t brace = address.find('{');
    if (brace == std::string_view::npos) return operand.tupleElementCount;
    std::size_t braceAt = operand.range.begin + brace;
    std::uint32_t before = 0;
    while (before < operand.tupleElementCount &&
           module_.operands[operand.firstTupleElement + before].range.begin < braceAt)
      ++before;
    std::uint32_t coordinates = operand.tupleElementCount - before;
    return before + std::min(coordinates, geometry);
  }

  void lowerInstruction(std::uint32_t index, LoweredInstruction& out) {
    const InstructionSite& site = module_.instructions[index];
    if (site.inDamagedCode) return;
    if (isGlobalConversionInPlace(site)) return;
    flow::OperandIndices written = flow_.definedOperands(index);
    for (std::uint32_t operand : written) addRegister(module_.operands[operand], out.defs);
    recordFacts(site, written, out);
    bool cheap = !site.isGuarded() && isCheapDefinition(site);
    bool literal = cheap && isLiteralMove(site);
    for (std::uint32_t d : out.defs) {
      if (d >= cheapDefinitions_.size()) {
        cheapDefinitions_.resize(out_.values.size(), kNoDefinition);
        literalDefinitions_.resize(out_.values.size(), kNoDefinition);
      }
      cheapDefinitions_[d] = cheapDefinitions_[d] != 0 && cheap;
      literalDefinitions_[d] = literalDefinitions_[d] != 0 && literal;
    }
    const InstructionFacts& facts = module_.factsOf(site);
    const FamilyClass& family = classOf(facts);
    bool readsDestination = destinationIsAlsoRead(facts);
    bool aluInstruction = !site.isCall && family.has(kInlineOperands);
    if (family.has(kConsecutiveVectors)) recordVectorGroups(site);
    // Integer only: a floating-point type (or .ftz), a carry or a saturation takes more.
    bool cheapInteger = family.has(kOneCycleInteger) && !site.isGuarded() && !facts.isFloatType() &&
                        !facts.hasAny({Modifier::Ftz, Modifier::Cc, Modifier::Sat});
    if (cheapInteger && out.defs.size() == 1) {
      facts_[out.defs[0]].cheapIntegerAt = index - module_.functions[flow_.functionIndex()].firstInstruction;
    }
    if (family.has(kReadsOperandsLate) && !inSpace(facts, StateSpace::Param)) out.readsOperandsLate = true;
    for (std::uint32_t o = site.firstOperand; o < site.firstOperand + site.operandCount; ++o) {
      const InstructionOperand& operand = module_.operands[o];
      bool isDestination = std::find(written.begin(), written.end(), o) != written.end();
      bool destinationVector = !written.empty() && o == site.firstOperand && !site.isCall &&
                               (operand.shape == OperandShape::Vector || operand.shape == OperandShape::PredicatePair);
      if ((isDestination || destinationVector) && !readsDestination) continue;
      addReads(operand, site, aluInstruction, out);
    }
    if (auto guard = flow_.guardRegisterOf(site)) {
      addUse(*guard, out, true);
      out.guardedDefs = !out.defs.empty();
    }
    // Instructions ptxas expands into a sequence or a slow-path subroutine need temporaries
    // beside their operands, held at the instruction only.
    for (std::uint32_t units = expansionTemporaries(facts); units > 0;) {
      std::uint8_t width = units >= 2 ? 2 : 1;
      LoweredValue value;
      value.units = width;
      value.rematerializable = true;
      value.scratch = true;
      out.addUse(static_cast<std::uint32_t>(out_.values.size()), true);
      out_.values.push_back(value);
      facts_.emplace_back();
      units -= width;
    }
  }

  // `cvta.to.global.u64 %rd1, %rd1` (or cvta.global): a global address and its generic
  // address are the same bits, so ptxas emits nothing and the register keeps its value.
  bool isGlobalConversionInPlace(const InstructionSite& site) const {
    const InstructionFacts& facts = module_.factsOf(site);
    if (!facts.is(Family::Cvta) || site.operandCount != 2 || site.isGuarded()) return false;
    bool global = facts.has(Modifier::Global);
    auto destination = flow_.registerOf(module_.operands[site.firstOperand]);
    auto source = flow_.registerOf(module_.operands[site.firstOperand + 1]);
    return global && destination && source && *destination == *source;
  }

  // What the folding and narrowing passes need: per value, its definitions and how it is read.
  void recordFacts(const InstructionSite& site, flow::OperandIndices written,
                   const LoweredInstruction& out) {
    const InstructionFacts& facts = module_.factsOf(site);
    bool add = facts.is(Family::Add);
    bool copy = facts.is(Family::Mov) || facts.is(Family::Cvta);
    std::uint32_t sources = 0;
    std::uint32_t offsetBase = kNoValue;
    bool otherOperand = false;
    // Pointer arithmetic: a 64-bit add, sub, mov or cvta whose result may be a shared address.
    bool pointerArithmetic = out.defs.size() == 1 && out_.values[out.defs[0]].units == 2 && !site.isGuarded() &&
                             (add || copy || facts.is(Family::Sub));
    std::uint32_t pointerResult = pointerArithmetic ? out.defs[0] : kNoValue;
    // Registers inside a vector or an address tuple: read, nothing more.
    auto readElements = [&](std::uint32_t firstElement, std::uint32_t count) {
      for (std::uint32_t e = 0; e < count; ++e) {
        if (auto key = flow_.registerOf(module_.operands[firstElement + e])) {
          ++facts_[valueOf(*key)].reads;
          ++sources;
        }
      }
    };
    for (std::uint32_t o = site.firstOperand; o < site.firstOperand + site.operandCount; ++o) {
      const InstructionOperand& operand = module_.operands[o];
      bool isDestination = std::find(written.begin(), written.end(), o) != written.end();
      bool destinationVector = !written.empty() && o == site.firstOperand && !site.isCall &&
                               (operand.shape == OperandShape::Vector || operand.shape == OperandShape::PredicatePair);
      if (isDestination || (destinationVector && !destinationIsAlsoRead(facts))) continue;
      switch (operand.shape) {
        case OperandShape::Register:
          if (auto key = flow_.registerOf(operand)) {
            std::uint32_t v = valueOf(*key);
            ++sources;
            ++facts_[v].reads;
            if (offsetBase == kNoValue) {
              offsetBase = v;
            } else {
              otherOperand = true;
            }
            if (add) ++facts_[v].addReads;
            if (pointerArithmetic) {
              ++facts_[v].pointerArithmeticReads;
              facts_[v].feeds.push_back(pointerResult);
            }
          }
          break;
        case OperandShape::IntegerLiteral:
          break;
        case OperandShape::Address:
          if (auto base = flow_.baseRegisterOf(operand)) {
            if (auto key = flow_.registerOf(*base)) {
              std::uint32_t v = valueOf(*key);
              ++facts_[v].reads;
              ++facts_[v].addressReads;
              if (isWindowAccess(facts)) ++facts_[v].windowAddressReads;
              ++sources;
            }
          }
          readElements(operand.firstTupleElement, readTupleElements(site, operand));
          otherOperand = true;
          break;
        case OperandShape::Vector:
        case OperandShape::PredicatePair:
          readElements(operand.firstElement, operand.elementCount);
          otherOperand = true;
          break;
        default:
          otherOperand = true;
          break;
      }
    }
    bool addsOffset = add && written.size() == 1 && !otherOperand && offsetBase != kNoValue &&
                      sources == 1 && !site.isGuarded() && site.operandCount == 3 &&
                      module_.operands[site.firstOperand + 2].shape == OperandShape::IntegerLiteral;
    for (std::uint32_t d : out.defs) {
      ValueFacts& fact = facts_[d];
      ++fact.definitions;
      fact.offsetOf = addsOffset && fact.definitions == 1 ? offsetBase : kNoValue;
      bool copies = copy && sources == 1 && !otherOperand && !site.isGuarded() &&
                    offsetBase != kNoValue && site.operandCount == 2;
      fact.copyOf = copies && fact.definitions == 1 ? offsetBase : kNoValue;
      bool wideByImmediate = facts.is(Family::Mul) && !site.isGuarded() && out.defs.size() == 1 && sources == 1 &&
                             facts.has(Modifier::Wide) && site.operandCount == 3 &&
                             module_.operands[site.firstOperand + 2].shape == OperandShape::IntegerLiteral;
      fact.wideOf = wideByImmediate && fact.definitions == 1 ? offsetBase : kNoValue;
    }
  }

  // A global, local or generic access (not a parameter, a constant bank or a window).
  bool isGlobalOrGenericAccess(const InstructionSite& site) const {
    const InstructionFacts& facts = module_.factsOf(site);
    return !inSpace(facts, StateSpace::Param, StateSpace::Const) && !isWindowAccess(facts);
  }

  // 64-bit registers that only ever address shared or local memory — directly or through
  // pointer arithmetic into other such registers — hold 32-bit offsets into the window in
  // SASS (old compilers emitted 64-bit shared pointers, nvcc's local arrays are addressed
  // from the 64-bit %SPL; ptxas narrows both: STL [R1+0x8]).
  void narrowWindowPointers() {
    // Candidates: pairs read only as window addresses or by pointer arithmetic; then those
    // whose arithmetic feeds a value that is not narrowed drop out, to a fixpoint.
    std::vector<bool> narrow(out_.values.size(), false);
    for (std::uint32_t value = 0; value < facts_.size(); ++value) {
      const ValueFacts& fact = facts_[value];
      narrow[value] = out_.values[value].units == 2 && fact.reads > 0 &&
                      fact.reads == fact.windowAddressReads + fact.pointerArithmeticReads;
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (std::uint32_t value = 0; value < facts_.size(); ++value) {
        const ValueFacts& fact = facts_[value];
        if (!narrow[value]) continue;
        for (std::uint32_t fed : fact.feeds) {
          if (fed != kNoValue && !narrow[fed]) {
            narrow[value] = false;
            changed = true;
            break;
          }
        }
      }
    }
    for (std::uint32_t v = 0; v < out_.values.size(); ++v) {
      if (narrow[v]) out_.values[v].units = 1;
    }
  }

  // LoweredValue::recomputableFrom, once `rematerializable` is final (an operand that is
  // rematerializable where the instruction reads it holds no register and does not count).
  void markRecomputable() {
    std::vector<bool> parameter(out_.values.size(), false);
    for (std::uint32_t v : out_.liveAtEntry) parameter[v] = true;
    auto definitions = [&](std::uint32_t v) { return facts_[v].definitions + (parameter[v] ? 1u : 0u); };
    for (std::uint32_t v = 0; v < facts_.size(); ++v) {
      const LoweredValue& value = out_.values[v];
      if (facts_[v].cheapIntegerAt == kNoValue || definitions(v) != 1 || value.predicate || value.rematerializable ||
          value.units != 1) {
        continue;
      }
      const LoweredInstruction& definition = out_.instructions[facts_[v].cheapIntegerAt];
      if (definition.defs.size() != 1 || definition.defs[0] != v) continue;
      std::uint32_t operand = kNoValue, registersRead = 0;
      for (std::size_t k = 0; k < definition.uses.size(); ++k) {
        std::uint32_t u = definition.uses[k];
        if (out_.values[u].rematerializable && !definition.materializes(k)) continue;
        ++registersRead;
        operand = u;
      }
      if (registersRead != 1 || operand == v || definitions(operand) > 1 || out_.values[operand].predicate) continue;
      out_.values[v].recomputableFrom = operand;
    }
  }

  // ld.param of a kernel parameter (constant bank), or a mov of an immediate or of a
  // variable's address: nothing a register must carry from the definition to the uses.
  bool isCheapDefinition(const InstructionSite& site) const {
    const InstructionFacts& facts = module_.factsOf(site);
    if (site.operandCount != 2) return false;
    const InstructionOperand& source = module_.operands[site.firstOperand + 1];
    if (facts.is(Family::Ld)) {
      if (facts.space == StateSpace::Param) return kernel_;
      // A constant-bank word at a fixed address: ALU instructions read c[bank][offset] directly.
      return facts.space == StateSpace::Const && source.shape == OperandShape::Address && !flow_.baseRegisterOf(source);
    }
    if (facts.is(Family::Mov)) {
      if (source.shape == OperandShape::Register) return false;
      if (source.shape == OperandShape::SpecialRegister) {
        // %ntid and %nctaid live in the constant bank (SASS reads c[0x0][0x0]..c[0x0][0x14]);
        // the others (%tid.x, %ctaid.x...) need an S2R and a register.
        std::string_view spelled = slice(text_, source.range);
        return spelled.starts_with("%ntid") || spelled.starts_with("%nctaid");
      }
      if (source.shape == OperandShape::Symbol || source.shape == OperandShape::Expression ||
          source.shape == OperandShape::IntegerLiteral || source.shape == OperandShape::FloatLiteral) {
        std::string_view spelled = slice(text_, source.range);  // An immediate or an address.
        return !spelled.starts_with("%");
      }
    }
    return false;
  }

  // `mov %f7, 0f3F800000`: the value is an immediate wherever it is read.
  bool isLiteralMove(const InstructionSite& site) const {
    if (!module_.factsOf(site).is(Family::Mov) || site.operandCount != 2) return false;
    OperandShape shape = module_.operands[site.firstOperand + 1].shape;
    return shape == OperandShape::IntegerLiteral || shape == OperandShape::FloatLiteral;
  }

  // A SASS ALU instruction has one immediate slot: where a PTX instruction reads two or more
  // immediates (`fma.rn.f32 %f25, %f24, %f22, %f23` with both constants), all but one are
  // loaded into registers (FFMA R11, R0, R15, -0.0523 with R15 = 0x3c80f082).
  void materializeSecondImmediates() {
    for (LoweredInstruction& instruction : out_.instructions) {
      bool slotTaken = false;
      for (std::size_t k = 0; k < instruction.uses.size() && k < 64; ++k) {
        std::uint32_t u = instruction.uses[k];
        if (instruction.materializes(k) || !out_.values[u].rematerializable) continue;
        if (literalDefinitions_[u] != 1) continue;
        bool sameAsEarlier =
            std::find(instruction.uses.begin(), instruction.uses.begin() + k, u) != instruction.uses.begin() + k;
        if (sameAsEarlier) continue;
        if (slotTaken) instruction.materializedUses |= std::uint64_t{1} << k;
        slotTaken = true;
      }
    }
  }

  static constexpr std::uint32_t kNoValue = UINT32_MAX;
  struct ValueFacts {
    std::uint32_t definitions = 0;
    std::uint32_t reads = 0;
    std::uint32_t addressReads = 0;        // As the base of an address.
    std::uint32_t windowAddressReads = 0;  // As the base of a shared or local address.
    // The (function-local) instruction that defines it, when that is a one-cycle integer one.
    std::uint32_t cheapIntegerAt = kNoValue;
    std::uint32_t pointerArithmeticReads = 0;
    std::vector<std::uint32_t> feeds;   // Values its pointer arithmetic reads define.
    std::uint32_t offsetOf = kNoValue;  // Defined once as this value plus an immediate.
    std::uint32_t copyOf = kNoValue;    // Defined once as a copy (mov, cvta) of this value.
    std::uint32_t addReads = 0;         // As an operand of an add.
    std::uint32_t wideOf = kNoValue;    // Defined once by mul.wide of this register by an immediate.
  };

  std::string_view text_;
  const Module& module_;
  flow::FunctionFlow& flow_;
  bool kernel_ = false;
  std::uint32_t sm_ = 75;
  std::vector<ValueFacts> facts_;  // Parallel to out_.values.

  // Per value: whether every definition is cheap (1), not (0), or none was seen yet.
  static constexpr std::int8_t kNoDefinition = -1;
  std::vector<std::int8_t> cheapDefinitions_;
  std::vector<std::int8_t> literalDefinitions_;  // Every definition a literal move.
  LoweredFunction out_;
  std::unordered_map<RegisterKey, std::uint32_t, KeyHash> ids_;
};

}  // namespace

std::uint8_t registerUnits(const Symbol& symbol) {
  std::uint32_t bytes = flow::typeSizeInBytes(symbol.typeId).value_or(4);
  return bytes >= 16 ? 4 : bytes == 8 ? 2 : 1;
}

LoweredFunction lowerFunction(std::string_view text, const Module& module, flow::FunctionFlow& flow) {
  return Lowerer(text, module, flow).run();
}

}  // namespace ptx::registers

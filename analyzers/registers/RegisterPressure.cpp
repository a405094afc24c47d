// RegisterPressure: lowering, regions, liveness and first-fit allocation (see RegisterPressure.h).
#include "registers/RegisterPressure.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <charconv>
#include <span>
#include <unordered_map>

#include "isa/IsaReference.h"
#include "registers/Occupancy.h"
#include "registers/Schedule.h"
#include "registers/SiteText.h"

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
bool destinationIsAlsoRead(std::string_view opcode) { return opcode == "wgmma"; }

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
      value.predicate = symbol.type == ".pred";
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
    std::string_view opcode = slice(text_, site.opcode);
    if (opcode != "tex" && opcode != "tld4") return operand.tupleElementCount;
    std::uint32_t geometry = 0;
    for (std::uint32_t m = site.firstModifier; m < site.firstModifier + site.modifierCount && geometry == 0; ++m) {
      std::string_view modifier = slice(text_, module_.modifiers[m]);
      if (modifier == ".1d") geometry = 1;
      if (modifier == ".2d" || modifier == ".a1d") geometry = 2;
      if (modifier == ".3d" || modifier == ".a2d" || modifier == ".cube" || modifier == ".2dms") geometry = 3;
      if (modifier == ".acube" || modifier == ".a2dms") geometry = 4;
    }
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

  static bool isAluOpcode(std::string_view opcode) {
    static constexpr std::string_view kOpcodes[] = {
        "mov",      "add",   "sub",   "mul",   "mad",  "fma",  "and",  "or",   "xor",   "not",   "shl",
        "shr",      "setp",  "set",   "selp",  "slct", "min",  "max",  "abs",  "neg",   "cvt",   "cvta",
        "shf",      "prmt",  "bfe",   "bfi",   "lop3", "popc", "clz",  "brev", "mul24", "mad24", "sad",
        "copysign", "testp", "cnot",  "bfind", "dp4a", "dp2a", "addc", "subc", "madc",  "div",   "rem",
        "rcp",      "sqrt",  "rsqrt", "sin",   "cos",  "ex2",  "lg2",  "tanh", "fns"};
    return std::find(std::begin(kOpcodes), std::end(kOpcodes), opcode) != std::end(kOpcodes);
  }

  void lowerInstruction(std::uint32_t index, LoweredInstruction& out) {
    const InstructionSite& site = module_.instructions[index];
    if (site.inDamagedCode) return;
    if (isGlobalConversionInPlace(site)) return;
    std::vector<std::uint32_t> written = flow_.definedOperands(index);
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
    std::string_view opcode = slice(text_, site.opcode);
    bool readsDestination = destinationIsAlsoRead(opcode);
    bool aluInstruction = !site.isCall && isAluOpcode(opcode);
    if (opcode == "ld" || opcode == "ldu" || opcode == "st" || opcode == "tex" || opcode == "tld4" ||
        opcode == "suld" || opcode == "sust") {
      recordVectorGroups(site);
    }
    bool cheapInteger = (opcode == "add" || opcode == "sub" || opcode == "shl" || opcode == "shr" || opcode == "and" ||
                         opcode == "or" || opcode == "xor") &&
                        !site.isGuarded() && !hasModifierPrefix(text_, module_, site, ".f") &&
                        !registers::hasModifier(text_, module_, site, ".cc") &&
                        !registers::hasModifier(text_, module_, site, ".sat");
    if (cheapInteger && out.defs.size() == 1) {
      facts_[out.defs[0]].cheapIntegerAt = index - module_.functions[flow_.functionIndex()].firstInstruction;
    }
    if ((opcode == "ld" || opcode == "ldu" || opcode == "st" || opcode == "atom" || opcode == "red" ||
         opcode == "tex" || opcode == "tld4" || opcode == "suld" || opcode == "sust" || opcode == "sured") &&
        !registers::hasModifier(text_, module_, site, ".param")) {
      out.readsOperandsLate = true;
    }
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
    for (std::uint32_t units = expansionScratchUnits(site, opcode); units > 0;) {
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

  // Temporaries of the expanded instructions, measured with ptxas 13 on kernels that differ
  // only in the instruction (scripts/expansion-registers.py, sm_80 and sm_90 alike); they add
  // to whatever else is live there.
  std::uint32_t expansionScratchUnits(const InstructionSite& site, std::string_view opcode) const {
    if (opcode != "div" && opcode != "rem" && opcode != "rcp" && opcode != "sqrt" && opcode != "rsqrt" &&
        opcode != "mul" && opcode != "popc") {
      return 0;
    }
    bool approximate = false;
    bool high = false;
    std::string_view type;
    for (std::uint32_t m = site.firstModifier; m < site.firstModifier + site.modifierCount; ++m) {
      std::string_view modifier = slice(text_, module_.modifiers[m]);
      if (modifier == ".approx" || modifier == ".full") approximate = true;
      if (modifier == ".hi") high = true;
      if (modifier.size() >= 3 &&
          (modifier[1] == 's' || modifier[1] == 'u' || modifier[1] == 'f' || modifier[1] == 'b') &&
          std::isdigit(static_cast<unsigned char>(modifier[2]))) {
        type = modifier;
      }
    }
    bool wide = type.ends_with("64");
    bool isSigned = type.starts_with(".s");
    bool isFloat = type.starts_with(".f");
    if (opcode == "mul") return high && wide ? (isSigned ? 7 : 3) : 0;
    if (opcode == "popc") return wide ? 3 : 0;
    if (opcode == "div") {
      if (!isFloat) return wide ? (isSigned ? 14 : 12) : (isSigned ? 8 : 5);
      if (approximate) return 0;
      return wide ? 16 : 8;
    }
    if (opcode == "rem") return wide ? (isSigned ? 14 : 12) : (isSigned ? 7 : 5);
    if (opcode == "rcp") return approximate && !wide ? 0 : 10;
    if (opcode == "sqrt") return approximate ? 0 : (wide ? 13 : 7);
    return wide ? 10 : 0;  // rsqrt.approx.f64 is refined in software; .f32 is one MUFU.
  }

  // `cvta.to.global.u64 %rd1, %rd1` (or cvta.global): a global address and its generic
  // address are the same bits, so ptxas emits nothing and the register keeps its value.
  bool isGlobalConversionInPlace(const InstructionSite& site) const {
    if (slice(text_, site.opcode) != "cvta" || site.operandCount != 2 || site.isGuarded()) return false;
    bool global = registers::hasModifier(text_, module_, site, ".global");
    auto destination = flow_.registerOf(module_.operands[site.firstOperand]);
    auto source = flow_.registerOf(module_.operands[site.firstOperand + 1]);
    return global && destination && source && *destination == *source;
  }

  // What the folding and narrowing passes need: per value, its definitions and how it is read.
  void recordFacts(const InstructionSite& site, const std::vector<std::uint32_t>& written,
                   const LoweredInstruction& out) {
    std::string_view opcode = slice(text_, site.opcode);
    std::uint32_t sources = 0;
    std::uint32_t offsetBase = kNoValue;
    bool otherOperand = false;
    // Pointer arithmetic: a 64-bit add, sub, mov or cvta whose result may be a shared address.
    bool pointerArithmetic = out.defs.size() == 1 && out_.values[out.defs[0]].units == 2 && !site.isGuarded() &&
                             (opcode == "add" || opcode == "sub" || opcode == "mov" || opcode == "cvta");
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
      if (isDestination || (destinationVector && opcode != "wgmma")) continue;
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
            if (opcode == "add") ++facts_[v].addReads;
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
              if (isWindowAccess(site)) ++facts_[v].windowAddressReads;
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
    bool addsOffset = opcode == "add" && written.size() == 1 && !otherOperand && offsetBase != kNoValue &&
                      sources == 1 && !site.isGuarded() && site.operandCount == 3 &&
                      module_.operands[site.firstOperand + 2].shape == OperandShape::IntegerLiteral;
    for (std::uint32_t d : out.defs) {
      ValueFacts& fact = facts_[d];
      ++fact.definitions;
      fact.offsetOf = addsOffset && fact.definitions == 1 ? offsetBase : kNoValue;
      bool copies = (opcode == "mov" || opcode == "cvta") && sources == 1 && !otherOperand && !site.isGuarded() &&
                    offsetBase != kNoValue && site.operandCount == 2;
      fact.copyOf = copies && fact.definitions == 1 ? offsetBase : kNoValue;
      bool wideByImmediate = opcode == "mul" && !site.isGuarded() && out.defs.size() == 1 && sources == 1 &&
                             hasModifier(site, ".wide") && site.operandCount == 3 &&
                             module_.operands[site.firstOperand + 2].shape == OperandShape::IntegerLiteral;
      fact.wideOf = wideByImmediate && fact.definitions == 1 ? offsetBase : kNoValue;
    }
  }

  bool isGlobalOrGenericAccess(const InstructionSite& site) const {
    return !hasModifier(site, ".param") && !hasModifier(site, ".const") && !isWindowAccess(site);
  }

  bool hasModifier(const InstructionSite& site, std::string_view name) const {
    return registers::hasModifier(text_, module_, site, name);
  }

  // An access through the shared or the local window, whose SASS addresses are 32-bit.
  bool isWindowAccess(const InstructionSite& site) const {
    return hasModifierPrefix(text_, module_, site, ".shared") || registers::hasModifier(text_, module_, site, ".local");
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
    std::string_view opcode = slice(text_, site.opcode);
    if (site.operandCount != 2) return false;
    const InstructionOperand& source = module_.operands[site.firstOperand + 1];
    if (opcode == "ld") {
      if (site.modifierCount == 0) return false;
      std::string_view space = slice(text_, module_.modifiers[site.firstModifier]);
      if (space == ".param") return kernel_;
      // A constant-bank word at a fixed address: ALU instructions read c[bank][offset] directly.
      return space == ".const" && source.shape == OperandShape::Address && !flow_.baseRegisterOf(source);
    }
    if (opcode == "mov") {
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
    if (slice(text_, site.opcode) != "mov" || site.operandCount != 2) return false;
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

// The allocation points each value is live at, per value: one flat array indexed by value
// (built from (value, point) pairs with a counting sort, so the walk that finds them does
// not grow a vector per value).
class PointLists {
 public:
  PointLists(std::size_t valueCount, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& visits)
      : start_(valueCount + 1, 0), points_(visits.size()) {
    for (const auto& [value, point] : visits) ++start_[value + 1];
    for (std::size_t v = 0; v < valueCount; ++v) start_[v + 1] += start_[v];
    std::vector<std::uint32_t> fill(start_.begin(), start_.end() - 1);
    for (const auto& [value, point] : visits) points_[fill[value]++] = point;
  }
  std::size_t size() const { return start_.size() - 1; }
  bool empty() const { return points_.empty(); }
  std::span<const std::uint32_t> of(std::uint32_t value) const {
    return {points_.data() + start_[value], start_[value + 1] - start_[value]};
  }

 private:
  std::vector<std::uint32_t> start_;
  std::vector<std::uint32_t> points_;
};

// First-fit allocation on exact lifetimes: values in order of their first live point (wider
// ones first at a tie), each given the lowest slot aligned to its size (pairs at even,
// quads at multiples of four registers) that is free at every point where the value is live,
// lifetime holes included. For code that is almost SSA, as compiler-generated PTX is, this
// order colours the interference graph with close to max-live registers, as a graph
// colouring would, at a cost linear in the summed lifetimes. Returns the registers used
// (highest slot + 1) and the units that did not fit under the budget (spilled).
std::pair<std::uint32_t, std::uint32_t> allocate(const LoweredFunction& lowered, const PointLists& pointsOf,
                                                 const PointLists& heldPoints,
                                                 const std::vector<std::uint32_t>& firstPoint, std::size_t pointCount,
                                                 std::uint32_t budget, std::uint32_t comfortable) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t v = 0; v < pointsOf.size(); ++v) {
    if (!pointsOf.of(v).empty() && !lowered.values[v].predicate) order.push_back(v);
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
  // Vector groups: the first group a value belongs to places it, with its companions, at
  // consecutive registers from a slot aligned to the group's size.
  constexpr std::uint32_t kNone = UINT32_MAX;
  std::vector<std::uint32_t> groupOf(lowered.values.size(), kNone);
  for (std::uint32_t g = 0; g < lowered.vectorGroups.size(); ++g) {
    const std::vector<std::uint32_t>& group = lowered.vectorGroups[g];
    bool usable = std::all_of(group.begin(), group.end(), [&](std::uint32_t v) {
      return v != kNone && !lowered.values[v].predicate && lowered.values[v].units == lowered.values[group[0]].units &&
             !lowered.values[v].rematerializable && groupOf[v] == kNone;
    });
    bool distinct = true;
    for (std::size_t a = 0; a < group.size() && distinct; ++a) {
      for (std::size_t b = a + 1; b < group.size(); ++b) distinct = distinct && group[a] != group[b];
    }
    if (!usable || !distinct) continue;
    for (std::uint32_t v : group) groupOf[v] = g;
  }
  std::vector<bool> placed(lowered.values.size(), false);
  std::vector<std::uint32_t> slotOf(lowered.values.size(), kNone);
  // The instructions that read each value, flat: readers[readerStart[v] .. readerStart[v + 1]).
  std::vector<std::uint32_t> readerStart(lowered.values.size() + 1, 0), readers;
  for (const LoweredInstruction& instruction : lowered.instructions) {
    for (std::uint32_t u : instruction.uses) ++readerStart[u + 1];
  }
  for (std::size_t v = 0; v < lowered.values.size(); ++v) readerStart[v + 1] += readerStart[v];
  readers.resize(readerStart.back());
  {
    std::vector<std::uint32_t> fill(readerStart.begin(), readerStart.end() - 1);
    for (std::uint32_t i = 0; i < lowered.instructions.size(); ++i) {
      for (std::uint32_t u : lowered.instructions[i].uses) readers[fill[u]++] = i;
    }
  }
  std::vector<RegisterMask> held(heldPoints.empty() ? 0 : pointCount, RegisterMask{});
  auto placeGroup = [&](std::uint32_t g) {
    const std::vector<std::uint32_t>& group = lowered.vectorGroups[g];
    std::uint32_t elementUnits = lowered.values[group[0]].units;
    std::uint32_t span = std::bit_ceil(static_cast<std::uint32_t>(group.size()) * elementUnits);
    std::vector<RegisterMask> taken(group.size(), RegisterMask{});
    for (std::size_t k = 0; k < group.size(); ++k) {
      for (std::uint32_t point : pointsOf.of(group[k])) {
        for (std::size_t w = 0; w < 4; ++w) taken[k][w] |= busy[point][w];
      }
    }
    for (std::uint32_t slot = 0; slot + span <= limit; slot += span) {
      bool free = true;
      for (std::size_t k = 0; k < group.size() && free; ++k) {
        for (std::uint32_t u = slot + static_cast<std::uint32_t>(k) * elementUnits;
             u < slot + static_cast<std::uint32_t>(k + 1) * elementUnits; ++u) {
          if ((taken[k][u / 64] >> (u % 64)) & 1) free = false;
        }
      }
      if (!free) continue;
      for (std::size_t k = 0; k < group.size(); ++k) {
        std::uint32_t first = slot + static_cast<std::uint32_t>(k) * elementUnits;
        for (std::uint32_t point : pointsOf.of(group[k])) {
          for (std::uint32_t u = first; u < first + elementUnits; ++u)
            busy[point][u / 64] |= std::uint64_t{1} << (u % 64);
        }
        if (!pointsOf.of(group[k]).empty()) top = std::max(top, first + elementUnits);
        placed[group[k]] = true;
        slotOf[group[k]] = first;
      }
      return true;
    }
    return false;
  };
  for (std::uint32_t v : order) {
    if (placed[v]) continue;
    if (groupOf[v] != kNone && placeGroup(groupOf[v])) continue;
    RegisterMask taken{};
    for (std::uint32_t point : pointsOf.of(v)) {
      for (std::size_t w = 0; w < 4; ++w) taken[w] |= busy[point][w];
    }
    RegisterMask avoided{};  // Registers held by a memory instruction's late read.
    if (!held.empty()) {
      for (std::uint32_t point : pointsOf.of(v)) {
        for (std::size_t w = 0; w < 4; ++w) avoided[w] |= held[point][w];
      }
    }
    std::uint32_t units = lowered.values[v].units;
    auto anyIn = [&](const RegisterMask& mask, std::uint32_t slot) {
      for (std::uint32_t u = slot; u < slot + units; ++u) {
        if ((mask[u / 64] >> (u % 64)) & 1) return true;
      }
      return false;
    };
    // Register banks (register number mod 2): a 32-bit value is preferably placed in the bank
    // that fewer of the registers it is read with use, so one instruction's operands come
    // from both banks (87% of the two-register ALU instructions in the corpus's SASS do).
    std::optional<std::uint32_t> preferredBank;
    if (units == 1) {
      int sharing[2] = {0, 0};
      for (std::uint32_t r = readerStart[v]; r < readerStart[v + 1]; ++r) {
        const LoweredInstruction& instruction = lowered.instructions[readers[r]];
        for (std::size_t k = 0; k < instruction.uses.size(); ++k) {
          std::uint32_t u = instruction.uses[k];
          if (u == v || slotOf[u] == kNone || lowered.values[u].units != 1) continue;
          if (lowered.values[u].rematerializable && !instruction.materializes(k)) continue;
          ++sharing[slotOf[u] % 2];
        }
      }
      if (sharing[0] != sharing[1]) preferredBank = sharing[0] < sharing[1] ? 0u : 1u;
    }
    // The lowest free slot that honours both preferences, then the one that honours the hold,
    // then the bank, then any; a preference may take a register past those already used only
    // while the function stays under the full-occupancy count (ptxas does not trade occupancy
    // for them).
    std::uint32_t growthLimit = std::max(top, comfortable);
    std::optional<std::uint32_t> chosen[4];
    for (std::uint32_t candidate = 0; candidate + units <= limit; candidate += units) {
      if (anyIn(taken, candidate)) continue;
      if (!chosen[3]) chosen[3] = candidate;
      if (candidate + units > growthLimit) break;
      bool holdOk = !anyIn(avoided, candidate);
      bool bankOk = !preferredBank || candidate % 2 == *preferredBank;
      int rank = holdOk && bankOk ? 0 : holdOk ? 1 : bankOk ? 2 : 3;
      if (!chosen[rank]) chosen[rank] = candidate;
      if (rank == 0) break;
    }
    std::optional<std::uint32_t> slot;
    for (const std::optional<std::uint32_t>& c : chosen) {
      if (c) {
        slot = c;
        break;
      }
    }
    if (!slot) {
      spilled += units;
      continue;
    }
    for (std::uint32_t point : pointsOf.of(v)) {
      for (std::uint32_t u = *slot; u < *slot + units; ++u) busy[point][u / 64] |= std::uint64_t{1} << (u % 64);
    }
    for (std::uint32_t point : heldPoints.of(v)) {
      for (std::uint32_t u = *slot; u < *slot + units; ++u) held[point][u / 64] |= std::uint64_t{1} << (u % 64);
    }
    top = std::max(top, *slot + units);
    slotOf[v] = *slot;
  }
  return {top, spilled};
}

// The function with a body that a call's target names, SIZE_MAX when there is none (an
// indirect call's target is a register; an `.extern` function's body is elsewhere).
std::size_t definedFunction(const Module& module, SymbolId callee) {
  if (callee == kNoSymbol || callee >= module.symbols.size()) return SIZE_MAX;
  const std::string& name = module.symbols[callee].name;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (function.bodyScope != kNoScope && !function.hasSyntaxErrors && module.symbols[function.symbol].name == name) {
      return f;
    }
  }
  return SIZE_MAX;
}

// Whether a function defined in the module calls itself, directly or through other functions:
// ptxas cannot inline it.
bool reachesItself(const Module& module, std::size_t start) {
  std::vector<bool> seen(module.functions.size(), false);
  std::vector<std::size_t> pending{start};
  while (!pending.empty()) {
    const FunctionInfo& function = module.functions[pending.back()];
    pending.pop_back();
    for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
      const InstructionSite& site = module.instructions[i];
      if (!site.isCall || site.inDamagedCode) continue;
      std::size_t callee = definedFunction(module, site.callee);
      if (callee == start) return true;
      if (callee != SIZE_MAX && !seen[callee]) {
        seen[callee] = true;
        pending.push_back(callee);
      }
    }
  }
  return false;
}

// The registers a function needs around a call that ptxas compiles through the ABI, with
// `across` 32-bit units live across it: never fewer than 24; from 5 units on, 20 plus the
// units rounded up to even (the values move to callee-saved registers); from 16 units on,
// about two registers per unit (2 x units + 6), as the callee-saved ones run out. Measured
// with ptxas 13 on sm_75 and sm_80 kernels calling an .extern function with 0..40 values live
// across.
std::uint32_t callRegisterFloor(std::uint32_t across) {
  constexpr std::uint32_t kAbiMinimum = 24;
  constexpr std::uint32_t kBelowCalleeSaved = 20;
  constexpr std::uint32_t kCalleeSavedUnits = 16;
  if (across >= kCalleeSavedUnits) return std::min<std::uint32_t>(255, 2 * across + 6);
  return std::max(kAbiMinimum, kBelowCalleeSaved + (across + 1) / 2 * 2);
}

// Whether a single-block loop counts: its back edge is taken on a comparison of a register
// the block steps by a constant (`add.s32 %r3, %r3, 1`), so ptxas can compute the trip count
// and unroll it with a remainder. A loop stepping by a register keeps its shape.
bool countedLoop(std::string_view text, const Module& module, flow::FunctionFlow& flow, const flow::BasicBlock& block) {
  const InstructionSite& branch = module.instructions[block.end - 1];
  auto guard = flow.guardRegisterOf(branch);
  if (!guard) return false;
  auto guardKey = flow.registerOf(*guard);
  if (!guardKey) return false;
  auto registerAt = [&](const InstructionSite& site, std::uint32_t k) -> std::optional<flow::RegisterKey> {
    if (k >= site.operandCount) return std::nullopt;
    return flow.registerOf(module.operands[site.firstOperand + k]);
  };
  for (std::uint32_t i = block.first; i + 1 < block.end; ++i) {
    const InstructionSite& compare = module.instructions[i];
    if (slice(text, compare.opcode) != "setp" || compare.operandCount < 3) continue;
    auto defined = registerAt(compare, 0);
    if (!defined || !(*defined == *guardKey)) continue;
    for (std::uint32_t k = 1; k < 3; ++k) {
      auto compared = registerAt(compare, k);
      if (!compared) continue;
      for (std::uint32_t j = block.first; j + 1 < block.end; ++j) {
        const InstructionSite& step = module.instructions[j];
        std::string_view opcode = slice(text, step.opcode);
        if ((opcode != "add" && opcode != "sub") || step.operandCount != 3) continue;
        auto destination = registerAt(step, 0);
        auto source = registerAt(step, 1);
        bool constantStep = module.operands[step.firstOperand + 2].shape == OperandShape::IntegerLiteral;
        if (destination && source && constantStep && *destination == *compared && *source == *compared) return true;
      }
    }
  }
  return false;
}

// ptxas unrolls small innermost loops that carry no `.pragma "nounroll"` four times and
// issues the copies' loads together, so each long-latency load result of the body is live
// four times over — but it stops short of costing occupancy: the figure never goes past the
// registers that keep every warp slot of the SM usable (32 on sm_80/sm_90, 40 on sm_86/sm_89,
// 64 on sm_75), unless it was there already. Measured with ptxas 13 on single-block loops of
// 1..12 global loads and 0..48 other instructions on sm_75, sm_80, sm_86 and sm_90: bodies of
// up to about 45 instructions are unrolled, and the figure grows by about three registers per
// load result up to that ceiling. Single-block loops only: the shape compilers leave after
// if-conversion, and the one measured.
std::uint32_t unrolledLoopRegisters(std::string_view text, const Module& module, flow::FunctionFlow& flow,
                                    const FunctionInfo& function, const LoweredFunction& lowered,
                                    const std::vector<flow::BasicBlock>& blocks, const RegisterEstimate& estimate,
                                    std::uint32_t current) {
  constexpr std::uint32_t kLargestUnrolledBody = 45;
  constexpr std::uint32_t kUnrollFactor = 4;
  std::uint32_t result = 0;
  std::uint32_t ceiling = std::max(current, fullOccupancyRegisters(compiledArchitecture(text, module)));
  std::uint32_t first = function.firstInstruction;
  for (std::uint32_t b = 0; b < blocks.size(); ++b) {
    const flow::BasicBlock& block = blocks[b];
    std::uint32_t size = block.end - block.first;
    if (size == 0 || size > kLargestUnrolledBody) continue;
    if (std::find(block.successors.begin(), block.successors.end(), b) == block.successors.end()) continue;
    // The loop's text, from the end of the instruction before it (its label and pragmas
    // included) to its last instruction.
    std::size_t from = block.first > first ? module.instructions[block.first - 1].statement.end
                                           : module.instructions[block.first].statement.begin;
    std::size_t to = module.instructions[block.end - 1].statement.end;
    if (from < to && to <= text.size() && text.substr(from, to - from).find("nounroll") != std::string_view::npos) {
      continue;
    }
    std::uint32_t loadUnits = 0;
    std::uint32_t textureUnits = 0;
    std::uint32_t peak = 0;
    bool writesMemory = false;
    bool synchronizes = false;
    for (std::uint32_t i = block.first; i < block.end; ++i) {
      peak = std::max<std::uint32_t>(peak, estimate.liveUnits[i - first]);
      const InstructionSite& site = module.instructions[i];
      std::string_view opcode = slice(text, site.opcode);
      // A store the next copy's loads may alias keeps them behind it; barriers, fences and
      // calls keep everything in place.
      if (opcode == "st" || opcode == "atom" || opcode == "red" || opcode == "sust" || opcode == "sured") {
        bool shared = hasModifierPrefix(text, module, site, ".shared");
        writesMemory = writesMemory || !shared || opcode != "st";
      }
      if (site.isCall || opcode == "bar" || opcode == "barrier" || opcode == "membar" || opcode == "fence" ||
          opcode.starts_with("mbarrier") || opcode == "cp") {
        synchronizes = true;
      }
      bool longLatency = opcode == "tex" || opcode == "tld4" || opcode == "suld" || opcode == "ldu";
      if (opcode == "ld") {
        longLatency = !hasModifier(text, module, site, ".param") && !hasModifier(text, module, site, ".const") &&
                      !hasModifierPrefix(text, module, site, ".shared");
      }
      if (!longLatency) continue;
      bool texture = opcode == "tex" || opcode == "tld4";
      for (std::uint32_t d : lowered.instructions[i - first].defs) {
        if (lowered.values[d].predicate) continue;
        (texture ? textureUnits : loadUnits) += lowered.values[d].units;
      }
    }
    if (synchronizes || !countedLoop(text, module, flow, block)) continue;
    // Texture fetches read through a cache that stores do not update within a kernel: they
    // move past stores; other loads do not.
    if (writesMemory) loadUnits = 0;
    loadUnits += textureUnits;
    if (loadUnits == 0) continue;
    std::uint32_t unrolled = peak + (kUnrollFactor - 1) * loadUnits + 1 + kReportedReserve;
    result = std::max(result, std::min(unrolled, ceiling));
  }
  return result;
}

// ptxas turns short forward branches into predicated code: `@p bra L` over a few
// instructions (an if, or an if/else whose then-part ends in `bra.uni` over the else-part)
// becomes one straight run, so the skipped instructions are scheduled with the code around
// them — a load under the condition issues together with the loads before and after it
// (SASS: `@!P0 LDG R6, [R2]` next to `@!P1 LDG R5, [R4+0x800]`). This pass merges such runs
// into one block for the register analysis: the skipped instructions read the branch's
// predicate (so they stay below its computation), the branches inside the run do nothing,
// and the run's successors are the join's. Their writes still end the old values' lives (a
// value written on one side only is, in compiler output, read on that side only, and
// keeping the old value alive would carry it back to the function's entry) — except an
// else-part's write of a register the then-part wrote, which must keep the then-value. A run stays short (its skipped
// part at most kIfConversionLimit instructions) and free of calls, barriers, returns and
// loops, as in the code ptxas predicates.
std::vector<flow::BasicBlock> ifConvert(std::string_view text, const Module& module, const flow::FunctionFlow& flow,
                                        LoweredFunction& lowered) {
  constexpr std::uint32_t kIfConversionLimit = 12;
  // The whole run stays small too: ptxas if-converts locally, and longer runs hoisted loads
  // past more code than its scheduler does (calibrated on the corpus: 16..96 tried).
  constexpr std::uint32_t kLargestConvertedRun = 24;
  const std::vector<flow::BasicBlock>& original = flow.blocks();
  std::uint32_t first = module.functions[flow.functionIndex()].firstInstruction;
  std::size_t n = original.size();
  // Blocks by first instruction (FunctionFlow numbers them in source order, but do not rely
  // on it): the index of the block starting at an instruction.
  std::vector<std::uint32_t> order(n);
  for (std::uint32_t b = 0; b < n; ++b) order[b] = b;
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return original[a].first < original[b].first; });
  for (std::size_t k = 0; k + 1 < n; ++k) {
    if (original[order[k]].end != original[order[k + 1]].first) return original;  // Not contiguous: leave it.
  }
  auto opcodeOf = [&](std::uint32_t i) { return slice(text, module.instructions[i].opcode); };
  auto predicatable = [&](const flow::BasicBlock& block) {
    for (std::uint32_t i = block.first; i < block.end; ++i) {
      const InstructionSite& site = module.instructions[i];
      std::string_view opcode = opcodeOf(i);
      if (site.isCall || site.inDamagedCode || opcode == "ret" || opcode == "exit" || opcode == "bar" ||
          opcode == "barrier" || opcode == "membar" || opcode == "fence" || opcode == "brx" || opcode == "trap" ||
          opcode.starts_with("mbarrier") || opcode.starts_with("wgmma") || opcode == "setmaxnreg") {
        return false;
      }
      if (site.isGuarded() && opcode != "bra") return false;  // Already predicated: keep it simple.
    }
    return true;
  };
  // The block a branch at instruction i jumps to (its successor that is not the next block).
  auto targetOf = [&](std::uint32_t position, std::uint32_t block) -> std::optional<std::uint32_t> {
    for (std::uint32_t s : original[block].successors) {
      if (position + 1 >= n || s != order[position + 1]) return s;
    }
    return std::nullopt;
  };
  std::vector<std::uint32_t> positionOf(n);
  for (std::uint32_t k = 0; k < n; ++k) positionOf[order[k]] = k;
  std::vector<std::uint32_t> regionOf(n);
  std::vector<flow::BasicBlock> regions;
  for (std::uint32_t k = 0; k < n;) {
    std::uint32_t start = k;
    std::uint32_t end = k;  // The region covers positions [start, end].
    for (bool extended = true; extended;) {
      extended = false;
      const flow::BasicBlock& last = original[order[end]];
      if (last.end == last.first) break;
      std::uint32_t branch = last.end - 1;
      const InstructionSite& site = module.instructions[branch];
      if (opcodeOf(branch) != "bra" || !site.isGuarded()) break;
      auto target = targetOf(end, order[end]);
      if (!target || positionOf[*target] <= end + 1) break;
      std::uint32_t join = positionOf[*target];
      // An if/else: the then-part ends with an unconditional forward branch over the else-part.
      const flow::BasicBlock& thenEnd = original[order[join - 1]];
      if (thenEnd.end > thenEnd.first && opcodeOf(thenEnd.end - 1) == "bra" &&
          !module.instructions[thenEnd.end - 1].isGuarded()) {
        auto elseJoin = targetOf(join - 1, order[join - 1]);
        if (elseJoin && positionOf[*elseJoin] > join) join = positionOf[*elseJoin];
      }
      if (join >= n) break;
      if (original[order[join]].end - original[order[start]].first > kLargestConvertedRun) break;
      // The skipped blocks: small, predicatable, entered only from inside the region.
      std::uint32_t skipped = 0;
      bool ok = true;
      for (std::uint32_t p = end + 1; p < join && ok; ++p) {
        const flow::BasicBlock& block = original[order[p]];
        skipped += block.end - block.first;
        ok = predicatable(block) && skipped <= kIfConversionLimit;
        for (std::uint32_t predecessor : block.predecessors) {
          ok = ok && positionOf[predecessor] >= start && positionOf[predecessor] < p;
        }
      }
      for (std::uint32_t predecessor : original[order[join]].predecessors) {
        ok = ok && positionOf[predecessor] >= start && positionOf[predecessor] < join;
      }
      if (!ok) break;
      // Predicate the skipped instructions on the branch's condition.
      // The branch's lowered uses end with its guard predicate.
      LoweredInstruction& branchInstruction = lowered.instructions[branch - first];
      std::optional<std::uint32_t> guard;
      if (!branchInstruction.uses.empty()) guard = branchInstruction.uses.back();
      branchInstruction.predicatedAway = true;
      std::vector<std::uint32_t> writtenInRun;
      for (std::uint32_t p = end + 1; p < join; ++p) {
        const flow::BasicBlock& block = original[order[p]];
        for (std::uint32_t i = block.first; i < block.end; ++i) {
          LoweredInstruction& instruction = lowered.instructions[i - first];
          if (opcodeOf(i) == "bra") instruction.predicatedAway = true;
          if (guard) instruction.addUse(*guard, true);
          // The else-part's write of a register the then-part wrote (a phi): the other
          // side's value must survive it.
          for (std::uint32_t d : instruction.defs) {
            if (std::find(writtenInRun.begin(), writtenInRun.end(), d) != writtenInRun.end()) {
              instruction.guardedDefs = true;
            }
          }
          writtenInRun.insert(writtenInRun.end(), instruction.defs.begin(), instruction.defs.end());
        }
      }
      end = join;
      extended = true;
    }
    flow::BasicBlock region;
    region.first = original[order[start]].first;
    region.end = original[order[end]].end;
    region.successors = original[order[end]].successors;  // Renumbered below.
    for (std::uint32_t p = start; p <= end; ++p) regionOf[order[p]] = static_cast<std::uint32_t>(regions.size());
    regions.push_back(std::move(region));
    k = end + 1;
  }
  for (flow::BasicBlock& region : regions) {
    for (std::uint32_t& s : region.successors) s = regionOf[s];
    std::sort(region.successors.begin(), region.successors.end());
    region.successors.erase(std::unique(region.successors.begin(), region.successors.end()), region.successors.end());
  }
  for (std::uint32_t r = 0; r < regions.size(); ++r) {
    for (std::uint32_t s : regions[r].successors) regions[s].predecessors.push_back(r);
  }
  return regions;
}

}  // namespace

std::uint32_t fullOccupancyRegisters(std::uint32_t sm) {
  std::optional<SmLimits> limits = limitsForTarget("sm_" + std::to_string(sm));
  if (!limits) return 32;
  std::uint32_t threadsPerSm = limits->maxWarpsPerSm * 32;
  return std::min<std::uint32_t>(255, limits->registersPerSm / threadsPerSm / 8 * 8);
}

std::uint32_t compiledArchitecture(std::string_view text, const Module& module) {
  constexpr std::uint32_t kLowestPtxasTarget = 75;
  TargetArch arch;
  if (module.header.target) {
    for (const auto& [name, range] : module.header.targets) {
      if (parseTargetArch(name, arch)) return std::max(arch.number, kLowestPtxasTarget);
    }
  }
  (void)text;
  return kLowestPtxasTarget;
}

std::optional<std::uint64_t> functionDirective(const FunctionInfo& function, std::string_view name,
                                               std::size_t position) {
  for (const HeaderDirective& directive : function.directives) {
    if (directive.name != name) continue;
    if (position >= directive.values.size()) return std::nullopt;
    return directive.values[position];
  }
  return std::nullopt;
}

RegisterBudget registerBudget(const FunctionInfo& function) {
  RegisterBudget budget;
  if (auto maxnreg = functionDirective(function, ".maxnreg")) {
    budget.registers = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(*maxnreg, 24, 255));
    budget.reason = ".maxnreg " + std::to_string(*maxnreg);
  } else if (auto threads = functionDirective(function, ".maxntid")) {
    std::uint64_t y = functionDirective(function, ".maxntid", 1).value_or(1);
    std::uint64_t z = functionDirective(function, ".maxntid", 2).value_or(1);
    std::uint64_t blocksPerSm = functionDirective(function, ".minnctapersm").value_or(1);
    std::uint64_t total = std::min<std::uint64_t>(*threads * y * z, 1024);
    budget.registers = launchBoundsRegisterCeiling(static_cast<std::uint32_t>(total),
                                                   static_cast<std::uint32_t>(std::min<std::uint64_t>(blocksPerSm, 32)));
    budget.reason = ".maxntid " + std::to_string(total) + " / .minnctapersm " + std::to_string(blocksPerSm);
  }
  return budget;
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
  std::vector<std::size_t> estimateOf(module.functions.size(), SIZE_MAX);
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (function.bodyScope == kNoScope || function.instructionCount == 0 || function.hasSyntaxErrors) continue;
    estimateOf[f] = estimates.size();
    estimates.push_back(estimateFunction(text, module, flows, f));
  }
  // A caller needs its callee's registers on top of what it keeps across the call (whether
  // ptxas inlines the callee or calls it). Call chains are followed to a fixpoint; cycles
  // (recursion through several functions) stop growing at the architectural 255.
  for (std::size_t pass = 0; pass < estimates.size() + 1; ++pass) {
    bool changed = false;
    for (RegisterEstimate& estimate : estimates) {
      for (const auto& [callee, across] : estimate.directCalls) {
        if (estimateOf[callee] == SIZE_MAX) continue;
        std::uint32_t needed = std::min<std::uint32_t>(255, estimates[estimateOf[callee]].registers + across);
        if (needed > estimate.registers) {
          estimate.registers = needed;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return estimates;
}

RegisterEstimate estimateFunction(std::string_view text, const Module& module, flow::FlowCache& flows, std::size_t f) {
  const FunctionInfo& function = module.functions[f];
  flow::FunctionFlow& flow = flows.flowOfFunction(f);
  LoweredFunction lowered = lowerFunction(text, module, flow);
  std::size_t valueCount = lowered.values.size();
  const std::vector<flow::BasicBlock> blocks = ifConvert(text, module, flow, lowered);
  std::uint32_t first = function.firstInstruction;

  // Liveness: live-in of each block to a fixpoint, walking blocks backward.
  std::vector<ValueSet> liveIn(blocks.size(), ValueSet(valueCount));
  std::vector<ValueSet> liveOut(blocks.size(), ValueSet(valueCount));
  // Each block is walked in the order ptxas is expected to issue it (Schedule.h).
  // The sets live into and out of a block do not depend on the order inside it, so liveness
  // is solved in source order first and the schedule computed from it.
  std::vector<std::uint32_t> order(function.instructionCount);
  for (std::uint32_t i = 0; i < function.instructionCount; ++i) order[i] = i;
  auto transfer = [&](std::uint32_t b, ValueSet live, auto&& at) {
    for (std::uint32_t position = blocks[b].end; position-- > blocks[b].first;) {
      std::uint32_t i = first + order[position - first];
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
  auto solveLiveness = [&] {
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
  };
  solveLiveness();

  // Rematerialization: the result of a one-cycle integer instruction (add, shift, logic op)
  // whose single register operand is live wherever the result is read holds no register of
  // its own; ptxas recomputes it at the use or folds it into the addressing mode (the SASS of
  // nvcc's bitonic sort reads tid * 4 and tid * 8 as [R5.X4], [R5.X8]). Not into loops, where
  // the instruction would repeat on every iteration.
  std::vector<bool> loopBlocks = blocksInLoops(blocks);
  {
    constexpr std::uint32_t kNoOperand = UINT32_MAX;
    std::vector<std::uint32_t> operandOf(valueCount, kNoOperand);
    bool any = false;
    for (std::uint32_t v = 0; v < valueCount; ++v) {
      operandOf[v] = lowered.values[v].recomputableFrom;
      any = any || operandOf[v] != kNoOperand;
    }
    if (any) {
      std::vector<bool> definedInLoop(valueCount, false);
      for (std::uint32_t b = 0; b < blocks.size(); ++b) {
        for (std::uint32_t i = blocks[b].first; i < blocks[b].end; ++i) {
          for (std::uint32_t d : lowered.instructions[i - first].defs) definedInLoop[d] = loopBlocks[b];
        }
      }
      // The operand must be live wherever the result is read.
      for (std::uint32_t b = 0; b < blocks.size(); ++b) {
        transfer(b, liveOut[b], [&](std::uint32_t i, const ValueSet& liveAfter) {
          const LoweredInstruction& instruction = lowered.instructions[i - first];
          for (std::uint32_t u : instruction.uses) {
            std::uint32_t o = operandOf[u];
            if (o == kNoOperand) continue;
            bool readHere = std::find(instruction.uses.begin(), instruction.uses.end(), o) != instruction.uses.end();
            if ((loopBlocks[b] && !definedInLoop[u]) || (!readHere && !liveAfter.contains(o)))
              operandOf[u] = kNoOperand;
          }
        });
      }
      bool recomputed = false;
      for (std::uint32_t v = 0; v < valueCount; ++v) {
        if (operandOf[v] == kNoOperand) continue;
        lowered.values[v].rematerializable = true;
        recomputed = true;
      }
      for (LoweredInstruction& instruction : lowered.instructions) {
        for (std::size_t k = 0; k < instruction.uses.size() && k < 64; ++k) {
          if (operandOf[instruction.uses[k]] != kNoOperand) instruction.materializedUses |= std::uint64_t{1} << k;
        }
      }
      if (recomputed) solveLiveness();
    }
  }

  // ptxas hoists loads while the pressure stays under the registers that keep every warp
  // slot usable (the same ceiling its unrolling respects, below); past it, it schedules for
  // registers. The target is in 32-bit units, without R1 and the two reserved registers.
  std::uint32_t sm = compiledArchitecture(text, module);
  std::int64_t pressureTarget =
      std::max<std::int64_t>(8, std::int64_t{fullOccupancyRegisters(sm)} - 1 - kReportedReserve);
  order = scheduleBlocks(text, module, flow, blocks, lowered, [&](std::uint32_t b) {
    BlockLiveness block;
    liveIn[b].forEach([&](std::uint32_t v) {
      if (!lowered.values[v].predicate && !lowered.values[v].rematerializable)
        block.liveInUnits += lowered.values[v].units;
    });
    block.pressureTarget = pressureTarget;
    block.liveOut = [&liveOut, b](std::uint32_t v) { return liveOut[b].contains(v); };
    return block;
  });

  // Calls ptxas cannot inline — indirect ones, and calls of functions defined elsewhere —
  // follow the ABI, whose register floor applies (callRegisterFloor).
  // Calls of functions defined here: the callee's registers add to what lives across the
  // call (estimateRegisters folds them in once every function is estimated).
  constexpr std::size_t kNoFunction = SIZE_MAX;
  std::vector<bool> opaqueCall(function.instructionCount, false);
  std::vector<std::size_t> calleeOf(function.instructionCount, kNoFunction);
  std::vector<std::size_t> abiCallees;
  std::unordered_map<std::size_t, bool> recursiveCallee;  // Asked once per callee.
  auto isRecursive = [&](std::size_t callee) {
    auto [known, inserted] = recursiveCallee.try_emplace(callee, false);
    if (inserted) known->second = reachesItself(module, callee);
    return known->second;
  };
  for (std::uint32_t i = 0; i < function.instructionCount; ++i) {
    const InstructionSite& site = module.instructions[first + i];
    if (!site.isCall || site.inDamagedCode) continue;
    std::size_t callee = definedFunction(module, site.callee);
    if (callee == kNoFunction || callee == f) {
      opaqueCall[i] = true;  // Indirect, external, or recursive: through the ABI.
    } else if (isRecursive(callee)) {
      // A recursive callee is compiled once, through the ABI: it saves the callee-saved
      // registers it uses, so the caller needs as many registers as it, not its sum with
      // what lives across the call, and the ABI floor applies around the call.
      opaqueCall[i] = true;
      if (std::find(abiCallees.begin(), abiCallees.end(), callee) == abiCallees.end()) abiCallees.push_back(callee);
    } else {
      calleeOf[i] = callee;
    }
  }
  std::uint32_t callFloor = 0;

  RegisterEstimate estimate;
  estimate.function = f;
  estimate.liveUnits.assign(function.instructionCount, 0);
  estimate.inLoop.assign(function.instructionCount, false);
  // Two allocation points per instruction: before it (2i) and after it (2i + 1).
  // (Points are recorded in walk order; the allocation only needs each value's first.)
  std::vector<std::pair<std::uint32_t, std::uint32_t>> visits;  // (value, point)
  visits.reserve(4 * std::size_t{function.instructionCount});
  std::vector<std::uint32_t> firstPoint(valueCount, UINT32_MAX);
  // Predicates live in their own file, which the allocation does not model: no points.
  auto touch = [&](std::uint32_t v, std::uint32_t point) {
    if (lowered.values[v].predicate) return;
    visits.emplace_back(v, point);
    firstPoint[v] = std::min(firstPoint[v], point);
  };
  for (std::uint32_t v : lowered.liveAtEntry) touch(v, 0);
  std::vector<std::uint32_t> operandsOnly;
  for (std::uint32_t b = 0; b < blocks.size(); ++b) {
    transfer(b, liveOut[b], [&](std::uint32_t i, const ValueSet& liveAfter) {
      const LoweredInstruction& instruction = lowered.instructions[i - first];
      std::uint32_t point = i - first;
      // Two points around the instruction: before it (its operands, a rematerialized value
      // included, and what lives past it) and after it (what lives on: a result nobody reads
      // is not kept, as ptxas removes the instruction or writes RZ). A result may take the
      // register of an operand that dies here, so the pressure at the instruction is the
      // larger of the two, not their union. Both come from one walk over what lives after it.
      auto killed = [&](std::uint32_t v) {
        return !instruction.guardedDefs &&
               std::find(instruction.defs.begin(), instruction.defs.end(), v) != instruction.defs.end();
      };
      std::uint32_t unitsBefore = 0, unitsAfter = 0, predicatesBefore = 0, predicatesAfter = 0;
      auto add = [&](std::uint32_t v, std::uint32_t& units, std::uint32_t& predicates) {
        if (lowered.values[v].predicate) {
          ++predicates;
        } else {
          units += lowered.values[v].units;
        }
      };
      liveAfter.forEach([&](std::uint32_t v) {
        touch(v, 2 * point + 1);
        add(v, unitsAfter, predicatesAfter);
        if (!killed(v)) {
          touch(v, 2 * point);
          add(v, unitsBefore, predicatesBefore);
        }
      });
      // Operands not already counted (read here and dead after, or rematerialized here).
      operandsOnly.clear();
      for (std::size_t k = 0; k < instruction.uses.size(); ++k) {
        std::uint32_t u = instruction.uses[k];
        if (lowered.values[u].rematerializable && !instruction.materializes(k)) continue;
        if (liveAfter.contains(u) && !killed(u)) continue;
        if (std::find(operandsOnly.begin(), operandsOnly.end(), u) != operandsOnly.end()) continue;
        operandsOnly.push_back(u);
        touch(u, 2 * point);
        add(u, unitsBefore, predicatesBefore);
      }
      if (opaqueCall[point] || calleeOf[point] != kNoFunction) {
        std::uint32_t across = 0;
        liveAfter.forEach([&](std::uint32_t v) {
          const LoweredValue& value = lowered.values[v];
          bool result = std::find(instruction.defs.begin(), instruction.defs.end(), v) != instruction.defs.end();
          if (!value.predicate && !result) across += value.units;
        });
        if (opaqueCall[point]) {
          callFloor = std::max(callFloor, callRegisterFloor(across));
        } else {
          estimate.directCalls.push_back({calleeOf[point], across});
        }
      }
      std::uint32_t units = std::max(unitsBefore, unitsAfter);
      std::uint32_t predicates = std::max(predicatesBefore, predicatesAfter);
      estimate.liveUnits[point] = static_cast<std::uint16_t>(std::min<std::uint32_t>(units, 0xFFFF));
      estimate.inLoop[point] = loopBlocks[b];
      estimate.maxLivePredicates = std::max(estimate.maxLivePredicates, predicates);
      if (units > estimate.maxLiveUnits || (units == estimate.maxLiveUnits && estimate.liveAtPeak.empty())) {
        estimate.maxLiveUnits = units;
        estimate.peakInstruction = i;
        estimate.liveAtPeak.clear();
        auto listed = [&](std::uint32_t v) { return !lowered.values[v].predicate && !lowered.values[v].scratch; };
        bool beforeIsPeak = unitsBefore >= unitsAfter;
        liveAfter.forEach([&](std::uint32_t v) {
          if (listed(v) && (!beforeIsPeak || !killed(v))) estimate.liveAtPeak.push_back(lowered.values[v].reg);
        });
        if (beforeIsPeak) {
          for (std::uint32_t u : operandsOnly) {
            if (listed(u)) estimate.liveAtPeak.push_back(lowered.values[u].reg);
          }
        }
      }
    });
  }
  // A register a memory instruction reads is not rewritten by the next two instructions the
  // schedule issues (its operands are read after issue); a preference, not a constraint.
  // (value, point) pairs.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> heldPoints;
  for (std::uint32_t b = 0; b < blocks.size(); ++b) {
    for (std::uint32_t position = blocks[b].first; position < blocks[b].end; ++position) {
      const LoweredInstruction& instruction = lowered.instructions[order[position - first]];
      if (!instruction.readsOperandsLate) continue;
      for (std::size_t k = 0; k < instruction.uses.size(); ++k) {
        std::uint32_t u = instruction.uses[k];
        if (lowered.values[u].predicate || (lowered.values[u].rematerializable && !instruction.materializes(k)))
          continue;
        for (std::uint32_t next = position + 1; next < blocks[b].end && next <= position + kMemoryOperandHold; ++next) {
          std::uint32_t later = order[next - first];
          heldPoints.push_back({u, 2 * later});
          heldPoints.push_back({u, 2 * later + 1});
        }
      }
    }
  }
  std::stable_sort(estimate.liveAtPeak.begin(), estimate.liveAtPeak.end(), [&](RegisterKey a, RegisterKey b) {
    return registerUnits(module.symbols[a.symbol]) > registerUnits(module.symbols[b.symbol]);
  });

  // The budget: .maxnreg, else the launch-bounds ceiling, else the architectural 255.
  RegisterBudget budget = registerBudget(function);
  estimate.budget = budget.registers;
  estimate.budgetReason = budget.reason;

  // ptxas reports two registers more than the highest one its code touches (checked on every
  // function of the corpus against its SASS), so the budget leaves room for them.
  auto [top, spilled] = allocate(lowered, PointLists(valueCount, visits), PointLists(valueCount, heldPoints),
                                 firstPoint, 2 * std::size_t{function.instructionCount},
                                 estimate.budget - kReportedReserve, fullOccupancyRegisters(sm) - kReportedReserve);
  estimate.registers = top + kReportedReserve;
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
  estimate.registers = std::max(estimate.registers, callFloor);
  estimate.registers = std::max(estimate.registers, unrolledLoopRegisters(text, module, flow, function, lowered, blocks,
                                                                          estimate, estimate.registers));
  estimate.spilledUnits = spilled;
  for (std::size_t callee : abiCallees) estimate.directCalls.push_back({callee, 0});
  return estimate;
}

}  // namespace ptx::registers

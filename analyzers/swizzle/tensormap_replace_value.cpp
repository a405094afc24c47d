// SWZ002 tensormap-replace-value
//
// What it does: checks the constant new values that `tensormap.replace.tile.<field>` writes
// into a tensor map:
//   - .elemtype, .interleave_layout, .swizzle_mode, .swizzle_atomicity and .fill_mode against
//     the encodings the PTX ISA defines for them (elemtype 0-15, with 13-15 from PTX ISA 8.7
//     and not on sm_90a; interleave 0-2; swizzle mode 0-4, with 4 (96-byte) from PTX ISA 8.8
//     and only on sm_103a; atomicity 0-3; fill mode 0-1);
//   - .rank, which takes the rank minus one: a value above 4 names no tensor (ranks are 1-5);
//   - .box_dim outside 1-256 and .element_stride outside 1-8 (the tensor-map limits);
//   - combinations, when one function writes both fields of the same tensor map in one
//     straight-line stretch of code: a swizzle atomicity other than 16B with a swizzle mode
//     other than 128-byte, an interleaved layout with a rank below 3, and a dimension-0
//     traversal stride other than 1 without interleave.
// Values held in registers are judged when the dataflow analysis knows them.
//
// Why is this bad: tensormap.replace writes the bits as given. A value the format does not
// define, or a combination the tensor copy does not support, leaves a map whose behaviour is
// undefined; nothing reports it until the copies misbehave. ptxas rejects out-of-range
// immediates of the enumerated fields, but accepts a rank of 5, box dimensions of 0 or 257,
// traversal strides of 0 or 9, and every combination.
//
// Example:
//     tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%r1], 2;        // 64-byte
//     tensormap.replace.tile.swizzle_atomicity.shared::cta.b1024.b32 [%r1], 1;   // 32B
//     tensormap.replace.tile.rank.shared::cta.b1024.b32 [%r1], 5;                // rank 6?
//
// Use instead:
//     tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%r1], 3;        // 128-byte
//     tensormap.replace.tile.swizzle_atomicity.shared::cta.b1024.b32 [%r1], 1;
//     tensormap.replace.tile.rank.shared::cta.b1024.b32 [%r1], 4;                // 5D
//
// Fix: write one of the encodings listed for the field (the rank minus one for .rank), and
// use atomicities other than 16B only with 128-byte swizzling.
//
// References: PTX ISA §9.7.9.26 (tensormap.replace, the new_val validity table), §5.5.1
// (ranks 1-5), §5.5.3.2 (traversal stride), §5.5.6 (interleave needs 3D-5D), §5.5.7 (valid
// swizzle-atomicity combinations); CUDA driver API cuTensorMapEncodeTiled (box dimensions
// 1-256, element strides 1-8).
#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>

#include "RuleContext.h"
#include "flow/ConstantExpression.h"
#include "swizzle/Descriptors.h"

namespace ptx {
namespace {

enum class Field {
  GlobalAddress,
  Rank,
  BoxDim,
  GlobalDim,
  GlobalStride,
  ElementStride,
  ElemType,
  Interleave,
  SwizzleMode,
  SwizzleAtomicity,
  FillMode,
};

std::optional<Field> fieldOf(Modifier modifier) {
  static constexpr std::pair<Modifier, Field> kFields[] = {
      {Modifier::GlobalAddress, Field::GlobalAddress},  {Modifier::Rank, Field::Rank},
      {Modifier::BoxDim, Field::BoxDim},                {Modifier::GlobalDim, Field::GlobalDim},
      {Modifier::GlobalStride, Field::GlobalStride},    {Modifier::ElementStride, Field::ElementStride},
      {Modifier::Elemtype, Field::ElemType},            {Modifier::InterleaveLayout, Field::Interleave},
      {Modifier::SwizzleMode, Field::SwizzleMode},      {Modifier::SwizzleAtomicity, Field::SwizzleAtomicity},
      {Modifier::FillMode, Field::FillMode}};
  for (auto [name, field] : kFields) {
    if (modifier == name) return field;
  }
  return std::nullopt;
}

bool takesOrdinal(Field field) {
  return field == Field::BoxDim || field == Field::GlobalDim || field == Field::GlobalStride || field == Field::ElementStride;
}

// The element types `.elemtype` encodes, by value, as messages name them (`.b4x16` and
// `.b6p2x16` are tensor-map types no instruction spells).
const std::array<std::string_view, 16>& elementTypes() {
  static const std::string f32Ftz = concat({spellingOf(Modifier::F32), spellingOf(Modifier::Ftz)});
  static const std::string tf32Ftz = concat({spellingOf(Modifier::Tf32), spellingOf(Modifier::Ftz)});
  static const std::string b6x16 = concat({spellingOf(Modifier::B6x16P32), " or .b6p2x16"});
  static const std::array<std::string_view, 16> names = {
      spellingOf(Modifier::U8),   spellingOf(Modifier::U16),  spellingOf(Modifier::U32), spellingOf(Modifier::S32),
      spellingOf(Modifier::U64),  spellingOf(Modifier::S64),  spellingOf(Modifier::F16), spellingOf(Modifier::F32),
      f32Ftz,                     spellingOf(Modifier::F64),  spellingOf(Modifier::Bf16), spellingOf(Modifier::Tf32),
      tf32Ftz,                    ".b4x16",                   spellingOf(Modifier::B4x16P64), b6x16};
  return names;
}
constexpr std::array<std::string_view, 3> kInterleaves = {"no interleave", "16B interleave", "32B interleave"};
constexpr std::array<std::string_view, 5> kSwizzleModes = {"no swizzling", "32-byte", "64-byte", "128-byte", "96-byte"};
constexpr std::array<std::string_view, 4> kAtomicities = {"16B", "32B", "32B with 8B flip", "64B"};

// One tensormap.replace instruction.
struct Replace {
  std::uint32_t instruction = 0;
  Field field = Field::Rank;
  std::optional<std::uint64_t> ordinal;
  std::optional<std::uint64_t> value;  // The new value, when known.
  const InstructionOperand* valueOperand = nullptr;
  const InstructionOperand* address = nullptr;
};

std::optional<Replace> replaceAt(const RuleContext& context, std::uint32_t index) {
  const Module& module = context.module;
  const InstructionSite& site = module.instructions[index];
  const InstructionFacts& facts = module.factsOf(site);
  if (site.inDamagedCode || !facts.is(Family::Tensormap)) return std::nullopt;
  const std::vector<Modifier>& modifiers = facts.modifiers;
  if (modifiers.size() < 3 || modifiers[0] != Modifier::Replace || modifiers[1] != Modifier::Tile) return std::nullopt;
  std::optional<Field> field = fieldOf(modifiers[2]);
  if (!field) return std::nullopt;
  std::uint32_t expected = takesOrdinal(*field) ? 3 : 2;
  if (site.operandCount != expected) return std::nullopt;
  Replace replace;
  replace.instruction = index;
  replace.field = *field;
  replace.address = &module.operands[site.firstOperand];
  replace.valueOperand = &module.operands[site.firstOperand + expected - 1];
  if (takesOrdinal(*field)) {
    const InstructionOperand& ordinal = module.operands[site.firstOperand + 1];
    if (auto constant = flow::evaluateConstant(context.textOf(ordinal.range))) replace.ordinal = static_cast<std::uint64_t>(*constant);
  }
  if (flow::FunctionFlow* flow = context.flows.flowOfInstruction(index)) {
    flow::AbstractValue value = flow->valueOf(index, *replace.valueOperand);
    if (auto constant = value.constantValue()) {
      // The .b32 fields hold 32 bits.
      replace.value = *field == Field::GlobalAddress || *field == Field::GlobalStride ? *constant : (*constant & 0xffffffffu);
    }
  }
  return replace;
}

std::string listOf(const std::string_view* names, std::size_t count) {
  std::string text;
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(i);
    text += " (";
    text += names[i];
    text += ")";
  }
  return text;
}

bool onlySm90a(const Module& module) {
  std::vector<std::string_view> targets = swizzle::smTargets(module);
  return !targets.empty() && std::all_of(targets.begin(), targets.end(), [](std::string_view t) { return t == "sm_90a"; });
}

// Whether the module's .version is known and older than major.minor.
bool versionBelow(const Module& module, std::uint32_t major, std::uint32_t minor) {
  const ModuleHeader& header = module.header;
  if (!header.version || (header.versionMajor == 0 && header.versionMinor == 0)) return false;
  return header.versionMajor < major || (header.versionMajor == major && header.versionMinor < minor);
}

std::string versionOf(const Module& module) {
  return concat({"PTX ISA ", std::to_string(module.header.versionMajor), ".", std::to_string(module.header.versionMinor)});
}

void report(const RuleContext& context, const Replace& replace, std::string message, std::vector<RelatedInformation> related = {}) {
  context.report("SWZ002", replace.valueOperand->range, std::move(message), std::move(related));
}

// The checks of one value on its own.
void checkValue(const RuleContext& context, const Replace& replace) {
  if (!replace.value) return;
  std::uint64_t value = *replace.value;
  std::string spelled = std::to_string(value);
  switch (replace.field) {
    case Field::ElemType:
      if (value >= elementTypes().size()) {
        report(context, replace, concat({".elemtype value ", spelled, " is no element type; the encodings are ", listOf(elementTypes().data(), elementTypes().size())}));
      } else if (value >= 13 && onlySm90a(context.module)) {
        report(context, replace, concat({".elemtype value ", spelled, " (", elementTypes()[value], ") needs sm_100a, sm_110a, sm_120a or their families; the module targets sm_90a"}));
      } else if (value >= 13 && versionBelow(context.module, 8, 7)) {
        report(context, replace, concat({".elemtype value ", spelled, " (", elementTypes()[value], ") needs PTX ISA 8.7; the module is ", versionOf(context.module)}));
      }
      break;
    case Field::Interleave:
      if (value >= kInterleaves.size()) {
        report(context, replace, concat({".interleave_layout value ", spelled, " is no interleave layout; the encodings are ", listOf(kInterleaves.data(), kInterleaves.size())}));
      }
      break;
    case Field::SwizzleMode:
      if (value >= kSwizzleModes.size()) {
        report(context, replace, concat({".swizzle_mode value ", spelled, " is no swizzling mode; the encodings are ", listOf(kSwizzleModes.data(), kSwizzleModes.size())}));
      } else if (value == 4) {
        std::vector<std::string_view> targets = swizzle::smTargets(context.module);
        if (!targets.empty() && std::find(targets.begin(), targets.end(), "sm_103a") == targets.end()) {
          report(context, replace, concat({".swizzle_mode value 4 (96-byte swizzling) is supported only on sm_103a; the module targets ", targets.front()}));
        } else if (versionBelow(context.module, 8, 8)) {
          report(context, replace, concat({".swizzle_mode value 4 (96-byte swizzling) needs PTX ISA 8.8; the module is ", versionOf(context.module)}));
        }
      }
      break;
    case Field::SwizzleAtomicity:
      if (value >= kAtomicities.size()) {
        report(context, replace, concat({".swizzle_atomicity value ", spelled, " is no swizzle atomicity; the encodings are ", listOf(kAtomicities.data(), kAtomicities.size())}));
      }
      break;
    case Field::FillMode:
      if (value > 1) {
        report(context, replace, concat({".fill_mode value ", spelled, " is no fill mode; the encodings are 0 (zero fill) and 1 (OOB-NaN fill)"}));
      }
      break;
    case Field::Rank:
      if (value > 4) {
        std::string message = concat({".rank takes the tensor's rank minus one (0-4 for 1D to 5D); ", spelled, " names no tensor"});
        if (value == 5) message += " (was the rank written instead of the rank minus one?)";
        report(context, replace, std::move(message));
      }
      break;
    case Field::BoxDim:
      if (value == 0 || value > 256) {
        report(context, replace, concat({".box_dim value ", spelled, " is outside 1-256, the bounding-box sizes a tensor map can hold"}));
      }
      break;
    case Field::ElementStride:
      if (value == 0 || value > 8) {
        report(context, replace, concat({".element_stride value ", spelled, " is outside 1-8; a traversal stride that skips nothing is 1"}));
      }
      break;
    default:
      break;
  }
}

// The last write of one field to one tensor map in a block.
struct Write {
  const Replace* replace = nullptr;
  bool known() const { return replace != nullptr && replace->value.has_value(); }
  std::uint64_t value() const { return *replace->value; }
};

struct MapState {
  Write swizzleMode, atomicity, interleave, rank, stride0;
};

// Where a tensor map lives: the variable and offset, or the address operand as written plus
// the definitions of its register (the same register, not redefined in between).
std::string mapKey(const RuleContext& context, flow::FunctionFlow& flow, const Replace& replace) {
  const InstructionSite& site = context.module.instructions[replace.instruction];
  std::string key(context.textOf(site.guard));
  key += "|";
  const InstructionOperand& address = *replace.address;
  flow::AbstractValue value = flow.addressOf(replace.instruction, address);
  if (auto offset = value.exactOffset()) {
    key += "var ";
    key += std::to_string(value.base);
    key += "+";
    key += std::to_string(*offset);
    return key;
  }
  for (char c : context.textOf(address.range)) {
    if (c != ' ' && c != '\t') key += c;
  }
  if (address.symbol != kNoSymbol && context.module.symbols[address.symbol].isRegister()) {
    InstructionOperand asRegister = address;
    asRegister.shape = OperandShape::Register;
    std::string_view spelled = context.textOf(address.range);
    std::size_t start = spelled.find_first_not_of("[ \t");
    std::size_t stop = spelled.find_first_of("+], \t", start);
    if (start == std::string_view::npos || stop == std::string_view::npos) return {};
    asRegister.range = {address.range.begin + static_cast<std::uint32_t>(start), address.range.begin + static_cast<std::uint32_t>(stop)};
    auto reg = flow.registerOf(asRegister);
    if (!reg) return {};
    for (std::uint32_t d : flow.reachingDefinitions(replace.instruction, *reg)) {
      key += " d";
      key += std::to_string(d);
    }
  }
  return key;
}

const Replace& later(const Write& a, const Write& b) { return a.replace->instruction > b.replace->instruction ? *a.replace : *b.replace; }
const Replace& earlier(const Write& a, const Write& b) { return a.replace->instruction > b.replace->instruction ? *b.replace : *a.replace; }

RelatedInformation writtenHere(const Replace& replace, std::string_view what) {
  return {replace.valueOperand->range, concat({what, " is written here"})};
}

void checkCombinations(const RuleContext& context, const MapState& map) {
  if (map.swizzleMode.known() && map.atomicity.known()) {
    std::uint64_t mode = map.swizzleMode.value(), atomicity = map.atomicity.value();
    if ((mode == 1 || mode == 2 || mode == 4) && atomicity >= 1 && atomicity <= 3) {
      const Replace& at = later(map.swizzleMode, map.atomicity);
      const Replace& other = earlier(map.swizzleMode, map.atomicity);
      report(context, at,
             concat({"swizzle atomicity ", kAtomicities[atomicity], " is valid only with 128-byte swizzling; this tensor map's swizzle mode is ",
                     kSwizzleModes[mode], ", which allows only 16B atomicity"}),
             {writtenHere(other, other.field == Field::SwizzleMode ? "the swizzle mode" : "the swizzle atomicity")});
    }
  }
  if (map.interleave.known() && map.rank.known()) {
    std::uint64_t interleave = map.interleave.value(), rank = map.rank.value();
    if ((interleave == 1 || interleave == 2) && rank < 2) {
      const Replace& at = later(map.interleave, map.rank);
      const Replace& other = earlier(map.interleave, map.rank);
      report(context, at,
             concat({"an interleaved layout (", kInterleaves[interleave], ") needs a 3D, 4D or 5D tensor; this tensor map's rank is ",
                     std::to_string(rank + 1), "D"}),
             {writtenHere(other, other.field == Field::Rank ? "the rank" : "the interleave layout")});
    }
  }
  if (map.interleave.known() && map.stride0.known()) {
    std::uint64_t stride = map.stride0.value();
    if (map.interleave.value() == 0 && stride >= 2 && stride <= 8) {
      const Replace& at = later(map.interleave, map.stride0);
      const Replace& other = earlier(map.interleave, map.stride0);
      report(context, at,
             concat({"without interleave the traversal stride of dimension 0 must be 1; this tensor map's is ", std::to_string(stride)}),
             {writtenHere(other, other.field == Field::Interleave ? "the interleave layout" : "the dimension-0 traversal stride")});
    }
  }
}

}  // namespace

void checkTensorMapReplaceValue(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (function.instructionCount == 0 || function.hasSyntaxErrors) continue;
    std::vector<Replace> replaces;
    for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
      if (auto replace = replaceAt(context, i)) replaces.push_back(*replace);
    }
    if (replaces.empty()) continue;
    for (const Replace& replace : replaces) checkValue(context, replace);
    // Combinations: the last writes of each tensor map within one basic block.
    flow::FunctionFlow& flow = context.flows.flowOfFunction(f);
    std::map<std::pair<std::uint32_t, std::string>, MapState> maps;
    for (const Replace& replace : replaces) {
      std::string key = mapKey(context, flow, replace);
      if (key.empty()) continue;
      MapState& map = maps[{flow.blockOf(replace.instruction), key}];
      switch (replace.field) {
        case Field::SwizzleMode: map.swizzleMode = {&replace}; break;
        case Field::SwizzleAtomicity: map.atomicity = {&replace}; break;
        case Field::Interleave: map.interleave = {&replace}; break;
        case Field::Rank: map.rank = {&replace}; break;
        case Field::ElementStride:
          if (!replace.ordinal) map.stride0 = {};  // Any dimension's stride may have changed.
          else if (*replace.ordinal == 0) map.stride0 = {&replace};
          break;
        default: break;
      }
    }
    for (const auto& [key, map] : maps) checkCombinations(context, map);
  }
}

}  // namespace ptx

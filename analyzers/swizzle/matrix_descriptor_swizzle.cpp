// SWZ001 matrix-descriptor-swizzle
//
// What it does: follows how the shared-memory matrix descriptors of `wgmma.mma_async`
// (a-desc, b-desc), `tcgen05.mma` (a-desc, b-desc) and `tcgen05.cp` (s-desc) are built from
// a buffer's address and constants (mov, cvta, cvt, and, shr, shl, or, add, bfi, and 64-bit
// values packed from two 32-bit halves), and reports a descriptor whose known bits cannot
// describe the matrix:
//   - tcgen05: a reserved swizzling mode (bits 61-63 hold 3, 5 or 7); bits 46-48 other than
//     the fixed 0b001, or bits 53-60 not 0; bit 52 (leading-dimension stride as an absolute
//     address) on a target other than sm_103a;
//   - a matrix start address that is not 16-byte aligned (the encoding keeps bits 4-17 only);
//   - a swizzled layout with base offset 0 (bits 49-51) whose start address lies in a
//     `.shared` buffer declared with less alignment than the pattern's repeat (1024 bytes for
//     128-byte, 512 for 64-byte, 256 for 32-byte swizzling), when no TMA tensor copy writes
//     that buffer;
//   - a non-zero base offset that fits neither the start address's row in the pattern (its
//     address bits 7-9) nor a pattern laid by absolute address (base offset 0).
// Only fields whose bits can be derived are judged, and only descriptors held in registers.
// Dynamically sized `.extern .shared` arrays are not judged: the launch decides where they
// start.
//
// Why is this bad: the tensor core reads the swizzle phase of each row from its absolute
// address bits 7-9, corrected by the base offset. A TMA tensor copy lays swizzled tiles out
// by absolute address too, so their descriptors take base offset 0 wherever the tile lies.
// Data that the threads swizzle relative to a buffer's start matches only when that start
// is on a repeat boundary (or when the base offset is set to (start >> 7) & 7). An H100 run
// of wgmma confirmed both. A wrong phase, a reserved mode or a truncated start address gives
// wrong products, not an error.
//
// Example:
//     .shared .align 128 .b8 sA[8192];      // 128-byte swizzle repeats every 1024 bytes
//     mov.u32 %r1, sA;
//     and.b32 %r2, %r1, 262128;             // (addr & 0x3FFFF) >> 4
//     shr.u32 %r3, %r2, 4;
//     cvt.u64.u32 %rd1, %r3;
//     or.b64 %rd2, %rd1, 4611686293305360384;   // 128B swizzle, SBO 1024, LBO 16, base offset 0
//     wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {...}, %rd2, %rd3, %p1, 1, 1, 0, 0;
//
// Use instead:
//     .shared .align 1024 .b8 sA[8192];
//
// Fix: align the buffer to the swizzle pattern's repeat, or set the base offset to the
// pattern's start address (>> 7) & 7; use a defined swizzling mode and the fixed fields.
// Advancing the start address by k*32 bytes inside a 128-byte row, as CUTLASS and DeepGEMM
// do, keeps the pattern and is not reported.
//
// References: PTX ISA §9.7.15.5.1.2.2 (wgmma matrix descriptor format), §9.7.16.4.1
// (tcgen05 shared memory descriptor), §5.5.7 (swizzling modes and base offset).
#include <algorithm>
#include <bit>
#include <optional>
#include <set>
#include <string>

#include "RuleContext.h"
#include "swizzle/Descriptors.h"

namespace ptx {
namespace {

using swizzle::AddressSlice;
using swizzle::BitValue;
using swizzle::knownField;

enum class Format { Wgmma, Tcgen05 };

struct SwizzleMode {
  std::string_view name;
  std::uint64_t repeat = 0;  // Bytes after which the pattern repeats; 0: not judged.
};

// The swizzling mode a descriptor's mode field encodes; nullopt for a reserved encoding.
std::optional<SwizzleMode> swizzleModeOf(Format format, std::uint64_t raw) {
  if (format == Format::Wgmma) {
    switch (raw) {
      case 0: return SwizzleMode{"no", 0};
      case 1: return SwizzleMode{"128-byte", 1024};
      case 2: return SwizzleMode{"64-byte", 512};
      case 3: return SwizzleMode{"32-byte", 256};
      default: return std::nullopt;
    }
  }
  switch (raw) {
    case 0: return SwizzleMode{"no", 0};
    case 1: return SwizzleMode{"128-byte (32-byte atomicity)", 0};  // Its repeat is not tabulated.
    case 2: return SwizzleMode{"128-byte", 1024};
    case 4: return SwizzleMode{"64-byte", 512};
    case 6: return SwizzleMode{"32-byte", 256};
    default: return std::nullopt;
  }
}

// The shared buffers that cp.async.bulk.tensor writes (TMA swizzles by absolute address).
struct TmaDestinations {
  std::vector<SymbolId> buffers;
  std::vector<ScopeId> unknownIn;  // Bodies with a destination whose buffer is not known.

  // Whether a TMA copy may write `symbol`: a known destination, or one that is unknown in a
  // function that can see the buffer.
  bool mayWrite(const Module& module, SymbolId symbol) const {
    if (std::find(buffers.begin(), buffers.end(), symbol) != buffers.end()) return true;
    ScopeId scope = module.symbols[symbol].scope;
    return std::any_of(unknownIn.begin(), unknownIn.end(), [&](ScopeId body) {
      return scope == kNoScope || scope == 0 || body == kNoScope || scopeEncloses(module, body, scope);
    });
  }
};

// A dynamically sized `.extern .shared` array: the launch decides where it starts.
bool isDynamicShared(const Symbol& symbol) {
  if (!symbol.isExtern && symbol.linkageId != Modifier::Extern) return false;
  return symbol.dimensions.empty() || !symbol.dimensions.front().has_value();
}

std::string describeStart(const RuleContext& context, const AddressSlice& slice) {
  std::string text = context.module.symbols[slice.base].name;
  if (slice.offset.isConstant()) {
    auto offset = static_cast<std::int64_t>(slice.offset.value());
    if (offset != 0) {
      text += offset < 0 ? "-" : "+";
      text += std::to_string(offset < 0 ? -offset : offset);
    }
  } else {
    text += "+<offset>";
  }
  return text;
}

class DescriptorCheck {
 public:
  explicit DescriptorCheck(const RuleContext& context) : context_(context), evaluators_(context) {}

  void check(std::uint32_t instruction, Format format, std::string_view operandName, const InstructionOperand& operand) {
    swizzle::BitEvaluator* evaluator = evaluators_.forInstruction(instruction);
    if (evaluator == nullptr) return;
    BitValue value = evaluator->valueOf(instruction, operand);
    if (!value.computed) return;
    operand_ = &operand;
    if (flow::FunctionFlow* flow = context_.flows.flowOfInstruction(instruction)) function_ = flow->functionIndex();
    prefix_ = concat({nameOf(format == Format::Wgmma ? Family::Wgmma : Family::Tcgen05), " ", operandName, ": "});
    const flow::KnownBits& bits = value.bits;

    const AddressSlice& slice = value.slice;
    // The start-address field (bits 0-13) holds address bits 4-17.
    bool encodesAddress = slice.present() && slice.lo == 0 && slice.hi >= 6 && slice.shift == 4;
    flow::KnownBits start;
    if (encodesAddress) {
      start = swizzle::addressBits(context_.module, slice);
      if (auto low = knownField(start, 0, 4); low && *low != 0) {
        report(concat({"the matrix start address ", describeStart(context_, slice), " is not 16-byte aligned; the descriptor keeps only address bits 4-17, so the matrix is read from ",
                       std::to_string(*low), " bytes lower"}));
      }
    } else if (auto field = knownField(bits, 0, 14)) {
      start = flow::KnownBits::constant(*field << 4);
    }

    auto rawMode = format == Format::Wgmma ? knownField(bits, 62, 2) : knownField(bits, 61, 3);
    if (format == Format::Tcgen05) {
      if (rawMode && !swizzleModeOf(format, *rawMode)) {
        report(concat({"the swizzling-mode field (bits 61-63) holds ", std::to_string(*rawMode),
                       ", a reserved encoding; tcgen05 defines 0 (none), 1 (128-byte with 32-byte atomicity), 2 (128-byte), 4 (64-byte) and 6 (32-byte)"}));
        return;
      }
      if (auto version = knownField(bits, 46, 3); version && *version != 1) {
        std::string binary = "0b";
        for (int b = 2; b >= 0; --b) binary += ((*version >> b) & 1) != 0 ? '1' : '0';
        report(concat({"bits 46-48 must hold the fixed value 0b001; they hold ", binary}));
      }
      if (auto fixed = knownField(bits, 53, 8); fixed && *fixed != 0) {
        report(concat({"bits 53-60 must be 0; they hold ", std::to_string(*fixed)}));
      }
      if (auto mode = knownField(bits, 52, 1); mode && *mode == 1) {
        std::vector<std::string_view> targets = swizzle::smTargets(context_.module);
        bool sm103 = std::any_of(targets.begin(), targets.end(), [](std::string_view t) { return t.starts_with("sm_103"); });
        if (!targets.empty() && !sm103) {
          report(concat({"bit 52 selects the absolute-address mode of the leading dimension stride, which only sm_103a supports; the module targets ",
                         targets.front()}));
        }
      }
    }
    if (!rawMode) return;
    std::optional<SwizzleMode> mode = swizzleModeOf(format, *rawMode);
    if (!mode || mode->repeat == 0) return;
    auto baseOffset = knownField(bits, 49, 3);
    if (!baseOffset) return;
    std::string repeat = std::to_string(mode->repeat);

    if (*baseOffset != 0) {
      // The pattern's phase at the start address: bits 7-9 (7-8 for 64-byte, 7 for 32-byte).
      unsigned phaseBits = static_cast<unsigned>(std::countr_zero(mode->repeat)) - 7;
      auto phase = knownField(start, 7, phaseBits);
      std::uint64_t wanted = *baseOffset & ((std::uint64_t{1} << phaseBits) - 1);
      if (phase && *phase != wanted) {
        report(concat({"base offset ", std::to_string(*baseOffset), " fits neither a ", mode->name,
                       " swizzle pattern that starts at the matrix (its start address is at row ", std::to_string(*phase),
                       " of the ", repeat, "-byte pattern, so the base offset would be ", std::to_string(*phase),
                       ") nor one written by TMA by absolute address (base offset 0)"}));
      }
      return;
    }
    if (!encodesAddress) return;
    const Symbol& buffer = context_.module.symbols[slice.base];
    if (buffer.spaceId != Modifier::Shared || isDynamicShared(buffer)) return;
    auto alignment = flow::declaredAlignment(buffer);
    if (!alignment || *alignment >= mode->repeat) return;
    if (!tma_) tma_ = tmaDestinations();
    if (tma_->mayWrite(context_.module, slice.base)) return;
    report(concat({"base offset 0 says the ", mode->name, " swizzle pattern starts on a ", repeat,
                   "-byte boundary, but the matrix lies in '", buffer.name, "', which is only ", std::to_string(*alignment),
                   "-byte aligned; declare it .align ", repeat, " or set the base offset from the pattern's start address"}),
           {swizzle::declarationOf(context_, slice.base)});
  }

 private:
  // The buffer an address operand points into, as far as the bit-level analysis knows.
  SymbolId bufferOf(std::uint32_t instruction, const InstructionOperand& address) {
    const Module& module = context_.module;
    if (address.shape != OperandShape::Address || address.symbol == kNoSymbol) return kNoSymbol;
    if (!module.symbols[address.symbol].isRegister()) return address.symbol;
    swizzle::BitEvaluator* evaluator = evaluators_.forInstruction(instruction);
    if (evaluator == nullptr) return kNoSymbol;
    // The register's spelling: from '[' to the offset or the closing bracket.
    std::string_view spelled = context_.textOf(address.range);
    std::size_t start = spelled.find_first_not_of("[ \t");
    std::size_t stop = spelled.find_first_of("+-], \t", start);
    if (start == std::string_view::npos || stop == std::string_view::npos) return kNoSymbol;
    InstructionOperand reg = address;
    reg.shape = OperandShape::Register;
    reg.range = {address.range.begin + static_cast<std::uint32_t>(start), address.range.begin + static_cast<std::uint32_t>(stop)};
    BitValue value = evaluator->valueOf(instruction, reg);
    if (!value.slice.present() || value.slice.shift != 0 || value.slice.lo != 0) return kNoSymbol;
    return value.slice.base;
  }

  TmaDestinations tmaDestinations() {
    TmaDestinations destinations;
    const Module& module = context_.module;
    for (std::size_t f = 0; f < module.functions.size(); ++f) {
      const FunctionInfo& function = module.functions[f];
      for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
        const InstructionSite& site = module.instructions[i];
        const InstructionFacts& facts = module.factsOf(site);
        if (!facts.is(Family::Cp) || site.operandCount == 0) continue;
        if (!facts.has(Modifier::Async) || !facts.has(Modifier::Bulk) || !facts.has(Modifier::Tensor)) continue;
        // The first state space named is the destination's.
        if (facts.space != StateSpace::Shared && facts.space != StateSpace::SharedCluster) continue;
        SymbolId buffer = bufferOf(i, module.operands[site.firstOperand]);
        // An unknown destination in a .func may be any caller's buffer passed by address.
        bool kernel = function.symbol != kNoSymbol && module.symbols[function.symbol].isEntry;
        if (buffer == kNoSymbol) destinations.unknownIn.push_back(kernel ? function.bodyScope : kNoScope);
        else destinations.buffers.push_back(buffer);
      }
    }
    return destinations;
  }

  // One finding per function and message: an unrolled K-loop repeats the same descriptor.
  void report(std::string message, std::vector<RelatedInformation> related = {}) {
    std::string text = prefix_ + message;
    if (!reported_.insert({function_, text}).second) return;
    context_.report("SWZ001", operand_->range, std::move(text), std::move(related));
  }

  const RuleContext& context_;
  swizzle::BitEvaluators evaluators_;
  std::optional<TmaDestinations> tma_;
  const InstructionOperand* operand_ = nullptr;
  std::string prefix_;
  std::size_t function_ = 0;
  std::set<std::pair<std::size_t, std::string>> reported_;
};

}  // namespace

void checkMatrixDescriptorSwizzle(const RuleContext& context) {
  const Module& module = context.module;
  std::optional<DescriptorCheck> check;
  for (std::uint32_t i = 0; i < module.instructions.size(); ++i) {
    const InstructionSite& site = module.instructions[i];
    if (site.inDamagedCode || site.operandCount < 2) continue;
    const InstructionFacts& facts = module.factsOf(site);
    if (!facts.is(Family::Wgmma) && !facts.is(Family::Tcgen05)) continue;
    if (facts.modifiers.empty()) continue;
    Modifier first = facts.modifiers.front();
    auto operand = [&](std::uint32_t index) -> const InstructionOperand& { return module.operands[site.firstOperand + index]; };
    // Descriptors held in registers; an immediate (as in syntax examples) is not judged.
    auto descriptor = [&](std::uint32_t index) { return operand(index).shape == OperandShape::Register; };
    Format format = facts.is(Family::Wgmma) ? Format::Wgmma : Format::Tcgen05;
    std::vector<std::pair<std::uint32_t, std::string_view>> descriptors;
    if (facts.is(Family::Wgmma) && first == Modifier::MmaAsync && site.operandCount >= 3) {
      descriptors = {{1, "a-desc"}, {2, "b-desc"}};
    } else if (facts.is(Family::Tcgen05) && first == Modifier::Mma && site.operandCount >= 3) {
      descriptors = {{1, "a-desc"}, {2, "b-desc"}};
    } else if (facts.is(Family::Tcgen05) && first == Modifier::Cp) {
      descriptors = {{1, "s-desc"}};
    } else {
      continue;
    }
    for (auto [index, name] : descriptors) {
      if (!descriptor(index)) continue;  // Also a register fragment or a tensor-memory address.
      if (!check) check.emplace(context);
      check->check(i, format, name, operand(index));
    }
  }
}

}  // namespace ptx

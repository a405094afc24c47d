// Descriptors: the bit-level value analysis and the descriptor layouts shared by the
// [swizzle] rules (see Descriptors.h).
#include "swizzle/Descriptors.h"

#include <algorithm>
#include <bit>

#include "flow/ConstantExpression.h"
#include "flow/IntegerOps.h"

namespace ptx::swizzle {
namespace {

using flow::KnownBits;

// cvta and mapa move an address between windows whose bases are aligned far beyond the bits
// the rules read; like FunctionFlow, only the low 16 bits are kept across them.
constexpr unsigned kWindowBits = 16;
constexpr int kMaxRounds = 100;

std::uint64_t lowMask(unsigned count) { return flow::truncateTo(~std::uint64_t{0}, count); }

unsigned log2Floor(std::uint64_t value) { return value == 0 ? 0 : 63 - static_cast<unsigned>(std::countl_zero(value)); }

AddressSlice clip(AddressSlice slice, unsigned lo, unsigned hi) {
  if (!slice.present()) return {};
  slice.lo = std::max(slice.lo, lo);
  slice.hi = std::min(slice.hi, hi);
  return slice.lo < slice.hi ? slice : AddressSlice{};
}

// The longest run of the slice's positions where `keep` has its bit set.
AddressSlice keepRun(AddressSlice slice, std::uint64_t keep) {
  if (!slice.present()) return {};
  unsigned bestLo = 0, bestHi = 0;
  for (unsigned p = slice.lo; p < slice.hi;) {
    if (((keep >> p) & 1) == 0) {
      ++p;
      continue;
    }
    unsigned start = p;
    while (p < slice.hi && ((keep >> p) & 1) != 0) ++p;
    if (p - start > bestHi - bestLo) {
      bestLo = start;
      bestHi = p;
    }
  }
  if (bestLo >= bestHi) return {};
  slice.lo = bestLo;
  slice.hi = bestHi;
  return slice;
}

AddressSlice shiftSliceLeft(AddressSlice slice, unsigned amount, unsigned width) {
  if (!slice.present() || amount >= width) return {};
  slice.lo += amount;
  slice.hi = std::min(slice.hi + amount, width);
  slice.shift -= static_cast<int>(amount);
  return slice.lo < slice.hi ? slice : AddressSlice{};
}

AddressSlice shiftSliceRight(AddressSlice slice, unsigned amount) {
  if (!slice.present() || slice.hi <= amount) return {};
  slice.lo = slice.lo > amount ? slice.lo - amount : 0;
  slice.hi -= amount;
  slice.shift += static_cast<int>(amount);
  return slice;
}

BitValue truncated(BitValue value, unsigned width) {
  value.bits = value.bits.truncated(width);
  value.slice = clip(value.slice, 0, width);
  return value;
}

BitValue plain(KnownBits bits, unsigned width) {
  BitValue value = BitValue::unknown();
  value.bits = bits.truncated(width);
  return value;
}

// Whether a `width`-bit value, read as signed, lies in (-2^(hi-1), 2^(hi-1)): its bits from
// hi - 1 up are known and all equal.
bool fitsBelow(const KnownBits& value, unsigned hi) {
  if (hi == 0 || hi >= 64) return false;
  std::uint64_t upper = ~lowMask(hi - 1);
  return (value.zero & upper) == upper || (value.one & upper) == upper;
}

// a + b or a - b at `width` bits, keeping an address slice of one operand.
BitValue addValues(const BitValue& a, const BitValue& b, bool subtract, unsigned width) {
  BitValue result = plain(subtract ? a.bits - b.bits : a.bits + b.bits, width);
  const BitValue* withSlice = nullptr;
  const BitValue* other = nullptr;
  if (a.slice.present() && !b.slice.present()) {
    withSlice = &a;
    other = &b;
  } else if (!subtract && b.slice.present() && !a.slice.present()) {
    withSlice = &b;
    other = &a;
  }
  if (withSlice == nullptr) return result;
  AddressSlice slice = clip(withSlice->slice, 0, width);
  if (!slice.present()) return result;
  KnownBits addend = other->bits.truncated(width);
  // Zero below the slice's top: the slice's bits do not change (and nothing carries).
  if ((addend.zero & lowMask(slice.hi)) == lowMask(slice.hi)) {
    result.slice = slice;
    return result;
  }
  // A field at bit 0 that holds the address from bit `shift` up: adding c to the value adds
  // c << shift to the address, modulo the field.
  if (slice.lo != 0 || slice.shift < 0) return result;
  KnownBits signedAddend = addend.signExtended(width);
  KnownBits delta = flow::shiftLeft(signedAddend, static_cast<unsigned>(slice.shift));
  result.slice = slice;
  result.slice.offset = subtract ? slice.offset - delta : slice.offset + delta;
  if (slice.hi < width && fitsBelow(signedAddend, slice.hi)) {
    // The sum is again an encoded shared address: nothing carries out of the field, so the
    // bits above it (the descriptor's other fields) stay as they were.
    std::uint64_t upper = lowMask(width) & ~lowMask(slice.hi);
    result.bits.zero = (result.bits.zero & ~upper) | (withSlice->bits.zero & upper);
    result.bits.one = (result.bits.one & ~upper) | (withSlice->bits.one & upper);
  }
  return result;
}

// Bits [position, position + width) of `value`, as a `width`-bit value.
BitValue extractBits(const BitValue& value, unsigned position, unsigned width) {
  BitValue result = BitValue::unknown();
  result.bits = flow::shiftRight(value.bits, position, 64).truncated(width);
  result.slice = clip(shiftSliceRight(value.slice, position), 0, width);
  return result;
}

// `value`'s low `width` bits placed at `position` (zero elsewhere).
BitValue placeBits(const BitValue& value, unsigned position, unsigned width) {
  BitValue result = BitValue::unknown();
  result.bits = flow::shiftLeft(value.bits.truncated(width), position);
  result.slice = shiftSliceLeft(clip(value.slice, 0, width), position, 64);
  return result;
}

}  // namespace

BitValue BitValue::meet(const BitValue& other) const {
  if (!computed) return other;
  if (!other.computed) return *this;
  BitValue result = BitValue::unknown();
  result.bits = bits.meet(other.bits);
  if (slice.present() && other.slice.present() && slice.base == other.slice.base && slice.shift == other.slice.shift) {
    unsigned lo = std::max(slice.lo, other.slice.lo);
    unsigned hi = std::min(slice.hi, other.slice.hi);
    if (lo < hi) result.slice = {slice.base, slice.offset.meet(other.slice.offset), slice.shift, lo, hi};
  }
  return result;
}

BitEvaluator::BitEvaluator(const RuleContext& context, flow::FunctionFlow& flow)
    : context_(context), flow_(flow), values_(flow.definitions().size()), solved_(flow.definitions().size(), false) {}

BitValue BitEvaluator::operandValue(std::uint32_t instruction, const InstructionOperand& operand) {
  switch (operand.shape) {
    case OperandShape::Register: {
      auto key = flow_.registerOf(operand);
      if (!key) return BitValue::unknown();
      std::vector<std::uint32_t> reaching = flow_.reachingDefinitions(instruction, *key);
      if (reaching.empty()) return BitValue::unknown();
      BitValue value;
      for (std::uint32_t d : reaching) value = value.meet(values_[d]);
      return value;
    }
    case OperandShape::IntegerLiteral:
    case OperandShape::Expression:
      if (auto constant = flow::evaluateConstant(context_.textOf(operand.range))) {
        return BitValue::constant(static_cast<std::uint64_t>(*constant));
      }
      return BitValue::unknown();
    case OperandShape::Symbol: {
      if (operand.symbol == kNoSymbol) return BitValue::unknown();
      BitValue value = BitValue::unknown();
      auto alignment = flow::declaredAlignment(context_.module.symbols[operand.symbol]);
      if (alignment && *alignment > 0) value.bits = KnownBits::alignedTo(log2Floor(*alignment));
      value.slice = {operand.symbol, KnownBits::constant(0), 0, 0, 64};
      return value;
    }
    default:
      return BitValue::unknown();
  }
}

BitValue BitEvaluator::evaluate(std::uint32_t definition) {
  BitValue value = evaluateOperation(definition);
  // Extend a slice downwards over low bits that are known in the value and equal to the
  // address's known bits (a mask that also clears bits the alignment already zeroes).
  if (value.computed && value.slice.present() && value.slice.lo > 0) {
    KnownBits address = addressBits(context_.module, value.slice);
    while (value.slice.lo > 0) {
      unsigned p = value.slice.lo - 1;
      int a = static_cast<int>(p) + value.slice.shift;
      if (a < 0 || a >= 64) break;
      std::uint64_t bit = std::uint64_t{1} << p, addressBit = std::uint64_t{1} << a;
      bool zero = (value.bits.zero & bit) != 0 && (address.zero & addressBit) != 0;
      bool one = (value.bits.one & bit) != 0 && (address.one & addressBit) != 0;
      if (!zero && !one) break;
      value.slice.lo = p;
    }
  }
  return value;
}

BitValue BitEvaluator::evaluateOperation(std::uint32_t definition) {
  using Operation = flow::IntegerOperation;
  const Module& module = context_.module;
  const flow::Definition& def = flow_.definitions()[definition];
  const InstructionSite& site = module.instructions[def.instruction];
  if (site.isCall || site.inDamagedCode || site.operandCount == 0) return BitValue::unknown();
  const flow::IntegerOp& op = flow_.integerOpOf(def.instruction);
  // A predicate destination type leaves the width of the words computed with at 64.
  unsigned width = op.type.isPredicate() ? 64 : op.type.width();
  if (width > 64) return BitValue::unknown();
  bool integer = op.type.present() && !op.type.isFloat() && !op.type.isPredicate();
  const InstructionOperand& destination = module.operands[site.firstOperand];

  // `mov.b64 {%r1, %r2}, %rd1`: each element receives its share of the source's bits.
  if (def.operand != site.firstOperand) {
    if (op.operation != Operation::Mov || destination.shape != OperandShape::Vector || site.operandCount != 2 ||
        destination.elementCount == 0 || def.operand < destination.firstElement ||
        def.operand >= destination.firstElement + destination.elementCount) {
      return BitValue::unknown();
    }
    unsigned elementWidth = width / destination.elementCount;
    BitValue source = operandValue(def.instruction, module.operands[site.firstOperand + 1]);
    if (!source.computed) return {};
    return extractBits(truncated(source, width), (def.operand - destination.firstElement) * elementWidth, elementWidth);
  }

  std::vector<BitValue> sources;
  for (std::uint32_t i = 1; i < site.operandCount; ++i) {
    const InstructionOperand& operand = module.operands[site.firstOperand + i];
    if (operand.shape == OperandShape::Vector) {
      // `mov.b64 %rd1, {%r1, %r2}`: the elements packed from the low bits up.
      if (op.operation != Operation::Mov || site.operandCount != 2 || operand.elementCount == 0) {
        return BitValue::unknown();
      }
      unsigned elementWidth = width / operand.elementCount;
      BitValue packed = BitValue::constant(0);
      for (std::uint32_t e = 0; e < operand.elementCount; ++e) {
        BitValue element = operandValue(def.instruction, module.operands[operand.firstElement + e]);
        if (!element.computed) return {};
        BitValue placed = placeBits(element, e * elementWidth, elementWidth);
        AddressSlice slice = packed.slice.present() ? packed.slice : placed.slice;
        packed.bits = packed.bits | placed.bits;
        packed.slice = slice;
      }
      sources.push_back(packed);
      continue;
    }
    BitValue value = operandValue(def.instruction, operand);
    if (!value.computed) return {};  // Not reached by the fixpoint yet.
    sources.push_back(value);
  }

  switch (op.operation) {
    case Operation::Mov:
      if (sources.size() == 1) return truncated(sources[0], width);
      break;
    case Operation::Cvta:
    case Operation::Mapa:
      if (!sources.empty()) {
        BitValue value = sources[0];
        value.bits = {value.bits.zero & lowMask(kWindowBits), value.bits.one & lowMask(kWindowBits)};
        if (value.slice.present()) {
          int top = static_cast<int>(kWindowBits) - value.slice.shift;
          value.slice = top <= 0 ? AddressSlice{} : clip(value.slice, 0, static_cast<unsigned>(top));
        }
        return truncated(value, width);
      }
      break;
    case Operation::Cvt: {
      if (sources.size() != 1 || op.typeCount != 2) break;
      bool integerSource = op.sourceType.present() && !op.sourceType.isFloat() && !op.sourceType.isPredicate();
      if (!integer || !integerSource || op.rounds || op.saturates) return BitValue::unknown();
      unsigned toBits = op.type.bits, fromBits = op.sourceType.bits;
      BitValue value = sources[0];
      KnownBits bits = value.bits.truncated(fromBits);
      if (op.sourceType.isSigned()) bits = bits.signExtended(fromBits);
      value.bits = bits.truncated(toBits);
      value.slice = clip(value.slice, 0, std::min(toBits, fromBits));
      return value;
    }
    case Operation::Add:
    case Operation::Sub:
      if (sources.size() != 2 || !integer || op.saturates || op.carries) break;
      return addValues(truncated(sources[0], width), truncated(sources[1], width), op.operation == Operation::Sub, width);
    case Operation::Mul:
    case Operation::Mad: {
      if (!integer || !(op.low || op.wide) || sources.size() < 2 || op.carries || op.saturates) break;
      KnownBits a = sources[0].bits.truncated(width);
      KnownBits b = sources[1].bits.truncated(width);
      unsigned resultWidth = width;
      if (op.wide) {
        if (op.type.isSigned()) {
          a = a.signExtended(width);
          b = b.signExtended(width);
        }
        resultWidth = std::min(2 * width, 64u);
      }
      BitValue product = plain(a * b, resultWidth);
      if (op.operation == Operation::Mul) return product;
      if (sources.size() < 3) return BitValue::unknown();
      return addValues(truncated(sources[2], resultWidth), product, false, resultWidth);
    }
    case Operation::Shl:
    case Operation::Shr: {
      if (sources.size() != 2 || !sources[1].bits.isConstant() || !op.type.present()) break;
      auto amount = static_cast<unsigned>(std::min<std::uint64_t>(sources[1].bits.value(), 64));
      BitValue value = truncated(sources[0], width);
      if (op.operation == Operation::Shl) {
        value.bits = flow::shiftLeft(value.bits, amount).truncated(width);
        value.slice = shiftSliceLeft(value.slice, amount, width);
        return value;
      }
      if (op.type.isSigned()) {
        value.bits = flow::arithmeticShiftRight(value.bits, amount, width).truncated(width);
      } else {
        value.bits = flow::shiftRight(value.bits, amount, width);
      }
      value.slice = shiftSliceRight(value.slice, amount);
      return value;
    }
    case Operation::And:
    case Operation::Or:
    case Operation::Xor: {
      if (sources.size() != 2 || !integer) break;
      BitValue a = truncated(sources[0], width), b = truncated(sources[1], width);
      BitValue result = BitValue::unknown();
      if (op.operation == Operation::And) {
        result.bits = a.bits & b.bits;
        if (a.slice.present() && !b.slice.present()) result.slice = keepRun(a.slice, b.bits.one);
        else if (b.slice.present() && !a.slice.present()) result.slice = keepRun(b.slice, a.bits.one);
      } else {
        result.bits = op.operation == Operation::Or ? (a.bits | b.bits) : (a.bits ^ b.bits);
        if (a.slice.present() && !b.slice.present()) result.slice = keepRun(a.slice, b.bits.zero);
        else if (b.slice.present() && !a.slice.present()) result.slice = keepRun(b.slice, a.bits.zero);
      }
      return truncated(result, width);
    }
    case Operation::Not:
      if (sources.size() == 1 && integer) return plain(~sources[0].bits, width);
      break;
    case Operation::Bfi: {
      if (sources.size() != 4 || !sources[2].bits.isConstant() || !sources[3].bits.isConstant()) break;
      // d = b with bits [pos, pos + len) replaced by the low len bits of a.
      std::uint64_t position = sources[2].bits.value() & 0xff, length = sources[3].bits.value() & 0xff;
      if (length == 0 || position + length > width) return BitValue::unknown();
      auto pos = static_cast<unsigned>(position), len = static_cast<unsigned>(length);
      std::uint64_t mask = lowMask(len) << pos;
      BitValue inserted = placeBits(sources[0], pos, len);
      const BitValue& base = sources[1];
      BitValue result = BitValue::unknown();
      result.bits = {(inserted.bits.zero & mask) | (base.bits.zero & ~mask), (inserted.bits.one & mask) | (base.bits.one & ~mask)};
      if (inserted.slice.present()) result.slice = inserted.slice;
      else result.slice = keepRun(base.slice, ~mask);
      return truncated(result, width);
    }
    case Operation::Selp:
      if (sources.size() == 3) return truncated(sources[0].meet(sources[1]), width);
      break;
    default:
      break;
  }
  // Anything else: what the dataflow layer knows of the value's bits.
  return plain(flow_.valueOfDefinition(definition).bits, width);
}

void BitEvaluator::solve(std::uint32_t root) {
  if (solved_[root]) return;
  const Module& module = context_.module;
  std::vector<std::uint32_t> closure;
  std::vector<std::uint32_t> stack{root};
  std::vector<bool> seen(values_.size(), false);
  seen[root] = true;
  while (!stack.empty()) {
    std::uint32_t d = stack.back();
    stack.pop_back();
    closure.push_back(d);
    std::uint32_t instruction = flow_.definitions()[d].instruction;
    const InstructionSite& site = module.instructions[instruction];
    auto visit = [&](const InstructionOperand& operand) {
      auto key = flow_.registerOf(operand);
      if (!key) return;
      for (std::uint32_t reaching : flow_.reachingDefinitions(instruction, *key)) {
        if (!seen[reaching] && !solved_[reaching]) {
          seen[reaching] = true;
          stack.push_back(reaching);
        }
      }
    };
    for (std::uint32_t i = 1; i < site.operandCount && !site.isCall; ++i) {
      const InstructionOperand& operand = module.operands[site.firstOperand + i];
      if (operand.shape == OperandShape::Vector) {
        for (std::uint32_t e = 0; e < operand.elementCount; ++e) visit(module.operands[operand.firstElement + e]);
      } else {
        visit(operand);
      }
    }
  }
  std::sort(closure.begin(), closure.end());
  bool changed = true;
  for (int round = 0; round < kMaxRounds && changed; ++round) {
    changed = false;
    for (std::uint32_t d : closure) {
      BitValue value = evaluate(d);
      // Later rounds may only lose facts; meeting keeps the sequence monotone.
      if (values_[d].computed) value = values_[d].meet(value);
      if (!(value == values_[d])) {
        values_[d] = value;
        changed = true;
      }
    }
  }
  for (std::uint32_t d : closure) {
    if (changed || !values_[d].computed) values_[d] = BitValue::unknown();
    solved_[d] = true;
  }
}

BitValue BitEvaluator::definitionValue(std::uint32_t definition) {
  solve(definition);
  return values_[definition];
}

BitValue BitEvaluator::valueOf(std::uint32_t instruction, const InstructionOperand& operand) {
  if (auto key = flow_.registerOf(operand)) {
    std::vector<std::uint32_t> reaching = flow_.reachingDefinitions(instruction, *key);
    if (reaching.empty()) return BitValue::unknown();
    BitValue value;
    for (std::uint32_t d : reaching) value = value.meet(definitionValue(d));
    return value.computed ? value : BitValue::unknown();
  }
  return operandValue(instruction, operand);
}

BitEvaluator* BitEvaluators::forInstruction(std::uint32_t instruction) {
  flow::FunctionFlow* flow = context_.flows.flowOfInstruction(instruction);
  if (flow == nullptr) return nullptr;
  std::size_t index = flow->functionIndex();
  if (evaluators_.size() <= index) evaluators_.resize(std::max(context_.module.functions.size(), index + 1));
  if (!evaluators_[index]) evaluators_[index] = std::make_unique<BitEvaluator>(context_, *flow);
  return evaluators_[index].get();
}

std::optional<std::uint64_t> knownField(const KnownBits& bits, unsigned first, unsigned count) {
  std::uint64_t mask = lowMask(count) << first;
  if (((bits.zero | bits.one) & mask) != mask) return std::nullopt;
  return (bits.one & mask) >> first;
}

KnownBits addressBits(const Module& module, const AddressSlice& slice) {
  if (slice.base == kNoSymbol) return {};
  KnownBits base;
  auto alignment = flow::declaredAlignment(module.symbols[slice.base]);
  if (alignment && *alignment > 0) base = KnownBits::alignedTo(log2Floor(*alignment));
  return base + slice.offset;
}

std::vector<std::string_view> smTargets(const Module& module) {
  std::vector<std::string_view> targets;
  for (const auto& [name, range] : module.header.targets) {
    std::string_view target = name;
    if (target.starts_with("sm_")) targets.push_back(target);
  }
  return targets;
}

RelatedInformation declarationOf(const RuleContext& context, SymbolId symbol) {
  const Symbol& s = context.module.symbols[symbol];
  std::string message = concat({"'", s.name, "' is declared here"});
  if (auto alignment = flow::declaredAlignment(s)) {
    message += s.alignment ? " with .align " : " without .align (aligned to its type's size, ";
    message += std::to_string(*alignment);
    if (!s.alignment) message += " bytes)";
  }
  return {s.nameRange, std::move(message)};
}

}  // namespace ptx::swizzle

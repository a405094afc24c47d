#include "flow/IntegerOps.h"

#include <algorithm>

namespace ptx::flow {
namespace {

IntegerOperation operationOf(Family family) {
  switch (family) {
    case Family::Add: return IntegerOperation::Add;
    case Family::Sub: return IntegerOperation::Sub;
    case Family::Mul: return IntegerOperation::Mul;
    case Family::Mad: return IntegerOperation::Mad;
    case Family::Mul24: return IntegerOperation::Mul24;
    case Family::Mad24: return IntegerOperation::Mad24;
    case Family::Div: return IntegerOperation::Div;
    case Family::Rem: return IntegerOperation::Rem;
    case Family::Min: return IntegerOperation::Min;
    case Family::Max: return IntegerOperation::Max;
    case Family::And: return IntegerOperation::And;
    case Family::Or: return IntegerOperation::Or;
    case Family::Xor: return IntegerOperation::Xor;
    case Family::Not: return IntegerOperation::Not;
    case Family::Neg: return IntegerOperation::Neg;
    case Family::Shl: return IntegerOperation::Shl;
    case Family::Shr: return IntegerOperation::Shr;
    case Family::Bfi: return IntegerOperation::Bfi;
    case Family::Mov: return IntegerOperation::Mov;
    case Family::Cvt: return IntegerOperation::Cvt;
    case Family::Cvta: return IntegerOperation::Cvta;
    case Family::Mapa: return IntegerOperation::Mapa;
    case Family::Selp: return IntegerOperation::Selp;
    case Family::Setp: return IntegerOperation::Setp;
    case Family::Ld: return IntegerOperation::Ld;
    case Family::Ldu: return IntegerOperation::Ldu;
    default: return IntegerOperation::Other;
  }
}

Comparison comparisonOf(Modifier modifier) {
  switch (modifier) {
    case Modifier::Eq: return Comparison::Eq;
    case Modifier::Ne: return Comparison::Ne;
    case Modifier::Lt: return Comparison::Lt;
    case Modifier::Le: return Comparison::Le;
    case Modifier::Gt: return Comparison::Gt;
    case Modifier::Ge: return Comparison::Ge;
    case Modifier::Lo: return Comparison::Lo;
    case Modifier::Ls: return Comparison::Ls;
    case Modifier::Hi: return Comparison::Hi;
    case Modifier::Hs: return Comparison::Hs;
    default: return Comparison::None;
  }
}

}  // namespace

IntegerType integerTypeOf(Modifier modifier) {
  const ModifierInfo& info = infoOf(modifier);
  if (info.typeClass == TypeClass::Predicate) return {TypeClass::Predicate, 1};
  if (info.typeClass == TypeClass::None || info.typeBytes == 0) return {};
  return {info.typeClass, static_cast<std::uint8_t>(info.typeBytes * 8)};
}

IntegerOp decodeIntegerOp(const InstructionFacts& facts) {
  IntegerOp op;
  op.operation = operationOf(facts.family);
  for (Modifier modifier : facts.modifiers) {
    if (IntegerType type = integerTypeOf(modifier); type.present()) {
      if (op.typeCount < UINT8_MAX) ++op.typeCount;
      if (!op.type.present()) {
        op.type = type;
      } else if (!op.sourceType.present()) {
        op.sourceType = type;
      }
    }
    switch (modifier) {
      case Modifier::Lo: op.low = true; break;
      case Modifier::Hi: op.high = true; break;
      case Modifier::Wide: op.wide = true; break;
      case Modifier::Sat: op.saturates = true; break;
      case Modifier::Cc: op.carries = true; break;
      case Modifier::Rn:
      case Modifier::Rz:
      case Modifier::Rm:
      case Modifier::Rp:
      case Modifier::Rni:
      case Modifier::Rzi: op.rounds = true; break;
      default: break;
    }
    if (Comparison comparison = comparisonOf(modifier); comparison != Comparison::None) op.comparison = comparison;
  }
  return op;
}

std::optional<bool> comparisonHolds(const IntegerOp& op, std::uint64_t x, std::uint64_t y) {
  unsigned bits = op.type.width();
  if (op.type.isSigned()) {
    std::int64_t sx = signExtendFrom(x, bits), sy = signExtendFrom(y, bits);
    switch (op.comparison) {
      case Comparison::Eq: return sx == sy;
      case Comparison::Ne: return sx != sy;
      case Comparison::Lt: return sx < sy;
      case Comparison::Le: return sx <= sy;
      case Comparison::Gt: return sx > sy;
      case Comparison::Ge: return sx >= sy;
      default: return std::nullopt;  // .lo .ls .hi .hs compare unsigned values.
    }
  }
  std::uint64_t ux = truncateTo(x, bits), uy = truncateTo(y, bits);
  switch (op.comparison) {
    case Comparison::Eq: return ux == uy;
    case Comparison::Ne: return ux != uy;
    case Comparison::Lt:
    case Comparison::Lo: return ux < uy;
    case Comparison::Le:
    case Comparison::Ls: return ux <= uy;
    case Comparison::Gt:
    case Comparison::Hi: return ux > uy;
    case Comparison::Ge:
    case Comparison::Hs: return ux >= uy;
    default: return std::nullopt;
  }
}

std::uint64_t convertInteger(const IntegerOp& op, std::uint64_t value) {
  unsigned sourceBits = op.sourceType.width();
  std::uint64_t extended = op.sourceType.isSigned() ? static_cast<std::uint64_t>(signExtendFrom(value, sourceBits))
                                                    : truncateTo(value, sourceBits);
  return truncateTo(extended, op.type.width());
}

std::optional<std::uint64_t> highProduct(const IntegerOp& op, std::uint64_t x, std::uint64_t y) {
  unsigned bits = op.type.width();
  if (bits > 32) return std::nullopt;
  std::uint64_t product = op.type.isSigned()
                              ? static_cast<std::uint64_t>(signExtendFrom(x, bits) * signExtendFrom(y, bits))
                              : truncateTo(x, bits) * truncateTo(y, bits);
  return truncateTo(product >> bits, bits);
}

std::uint64_t lowProduct(const IntegerOp& op, std::uint64_t x, std::uint64_t y, std::uint64_t addend) {
  unsigned bits = op.type.width();
  if (!op.wide) return truncateTo(x * y + addend, bits);
  auto widened = [&](std::uint64_t value) {
    return op.type.isSigned() ? static_cast<std::uint64_t>(signExtendFrom(value, bits)) : truncateTo(value, bits);
  };
  return truncateTo(widened(x) * widened(y) + addend, std::min(64u, bits * 2));
}

}  // namespace ptx::flow

// IntegerOps: which integer operation an instruction performs — its family, the width and
// signedness of its types, .lo/.hi/.wide, a comparison — decoded once from its facts, and the
// concrete semantics of those operations on 64-bit words.
//
// Three interpreters read this one decode: the value analysis (FunctionFlow, known bits of
// addresses), the thread model's evaluator (concrete values per thread,
// flow/ThreadEvaluation.h) and the descriptor evaluator of the swizzle rules (bit slices of an
// address, swizzle/Descriptors.h), so they agree on what an instruction computes.
#pragma once

#include <cstdint>
#include <optional>

#include "isa/InstructionFacts.h"

namespace ptx::flow {

enum class IntegerOperation : std::uint8_t {
  Other,  // Nothing any interpreter follows.
  Add, Sub, Mul, Mad, Mul24, Mad24, Div, Rem, Min, Max,
  And, Or, Xor, Not, Neg, Shl, Shr, Bfi,
  Mov, Cvt, Cvta, Mapa, Selp, Setp, Ld, Ldu,
};

// The comparison of a setp (the last comparison modifier).
enum class Comparison : std::uint8_t { None, Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs };

// A type modifier as arithmetic sees it.
struct IntegerType {
  TypeClass typeClass = TypeClass::None;  // None: absent.
  std::uint8_t bits = 0;                  // 1 for .pred.

  bool present() const { return typeClass != TypeClass::None; }
  bool isFloat() const { return typeClass == TypeClass::Float; }
  bool isSigned() const { return typeClass == TypeClass::Signed; }
  bool isPredicate() const { return typeClass == TypeClass::Predicate; }
  // The width of a value of this type, 64 when there is none.
  unsigned width() const { return present() ? bits : 64; }
};

struct IntegerOp {
  IntegerOperation operation = IntegerOperation::Other;
  IntegerType type;        // The first type modifier (the destination's).
  IntegerType sourceType;  // The second (cvt's source).
  std::uint8_t typeCount = 0;  // How many type modifiers it has.
  bool low = false;        // .lo
  bool high = false;       // .hi
  bool wide = false;       // .wide
  bool saturates = false;  // .sat
  bool carries = false;    // .cc
  bool rounds = false;     // .rn .rz .rm .rp .rni .rzi
  Comparison comparison = Comparison::None;
};

// The decode of one instruction (FunctionFlow::integerOpOf memoizes it per instruction).
IntegerOp decodeIntegerOp(const InstructionFacts& facts);

// The type a modifier spells (.u32, .pred), absent for any other modifier.
IntegerType integerTypeOf(Modifier modifier);

// Concrete semantics, on words holding `bits`-wide values in their low bits (inline: the
// evaluators call these for every value of every thread).
inline std::uint64_t truncateTo(std::uint64_t value, unsigned bits) {
  return bits >= 64 ? value : value & ((std::uint64_t{1} << bits) - 1);
}
inline std::int64_t signExtendFrom(std::uint64_t value, unsigned bits) {
  if (bits >= 64) return static_cast<std::int64_t>(value);
  std::uint64_t sign = std::uint64_t{1} << (bits - 1);
  value = truncateTo(value, bits);
  return static_cast<std::int64_t>((value ^ sign) - sign);
}

// The result of a two-source operation (add sub and or xor shl shr min max div rem) of the
// decoded width and signedness; nullopt for another operation or a division by zero. Inline:
// the column evaluation applies it to every thread of an address's computation.
inline std::optional<std::uint64_t> binaryResult(const IntegerOp& op, std::uint64_t x, std::uint64_t y) {
  unsigned bits = op.type.width();
  bool isSigned = op.type.isSigned();
  switch (op.operation) {
    case IntegerOperation::Add: return truncateTo(x + y, bits);
    case IntegerOperation::Sub: return truncateTo(x - y, bits);
    case IntegerOperation::And: return x & y;
    case IntegerOperation::Or: return x | y;
    case IntegerOperation::Xor: return x ^ y;
    case IntegerOperation::Shl: return y >= bits ? 0 : truncateTo(x << y, bits);
    case IntegerOperation::Shr:
      if (isSigned) {
        std::int64_t value = signExtendFrom(x, bits);
        return truncateTo(static_cast<std::uint64_t>(value >> std::min<std::uint64_t>(y, 63)), bits);
      }
      return y >= bits ? 0 : truncateTo(x, bits) >> y;
    case IntegerOperation::Min:
    case IntegerOperation::Max: {
      bool less = isSigned ? signExtendFrom(x, bits) < signExtendFrom(y, bits) : truncateTo(x, bits) < truncateTo(y, bits);
      return (op.operation == IntegerOperation::Min) == less ? x : y;
    }
    case IntegerOperation::Div:
    case IntegerOperation::Rem: {
      if (truncateTo(y, bits) == 0) return std::nullopt;
      bool divide = op.operation == IntegerOperation::Div;
      if (isSigned) {
        std::int64_t sx = signExtendFrom(x, bits), sy = signExtendFrom(y, bits);
        return truncateTo(static_cast<std::uint64_t>(divide ? sx / sy : sx % sy), bits);
      }
      return divide ? truncateTo(x, bits) / truncateTo(y, bits) : truncateTo(x, bits) % truncateTo(y, bits);
    }
    default: return std::nullopt;
  }
}

// Whether setp's comparison holds; nullopt without one its type allows.
std::optional<bool> comparisonHolds(const IntegerOp& op, std::uint64_t x, std::uint64_t y);
// cvt between integer types: the source's width and signedness, then the destination's.
std::uint64_t convertInteger(const IntegerOp& op, std::uint64_t value);
// The high half of a mul.hi (before mad's addend); nullopt above 32 bits.
std::optional<std::uint64_t> highProduct(const IntegerOp& op, std::uint64_t x, std::uint64_t y);
// x * y + addend of a mul or mad (.lo, .wide, and the 24-bit forms as a plain product), in the
// width of the result (twice the type's for .wide).
std::uint64_t lowProduct(const IntegerOp& op, std::uint64_t x, std::uint64_t y, std::uint64_t addend);

}  // namespace ptx::flow

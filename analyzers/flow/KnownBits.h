// KnownBits: which bits of a 64-bit value are known to be 0 or 1 (LLVM's KnownBits, cut down
// to what address analysis needs). Congruence modulo 2^k is "the low k bits are known";
// an exact constant is "every bit is known".
#pragma once

#include <bit>
#include <cstdint>

namespace ptx::flow {

struct KnownBits {
  std::uint64_t zero = 0;  // Bits known to be 0.
  std::uint64_t one = 0;   // Bits known to be 1.

  static KnownBits constant(std::uint64_t value) { return {~value, value}; }
  static KnownBits unknown() { return {}; }
  // A value whose low `bits` bits are zero (an address aligned to 2^bits).
  static KnownBits alignedTo(unsigned bits) {
    return {bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1, 0};
  }

  bool isConstant() const { return (zero | one) == ~std::uint64_t{0}; }
  std::uint64_t value() const { return one; }
  bool operator==(const KnownBits&) const = default;

  // How many low bits are known, contiguously from bit 0.
  unsigned knownLowBits() const { return static_cast<unsigned>(std::countr_one(zero | one)); }
  // How many low bits are known to be zero: the value is a multiple of 2^that.
  unsigned trailingZeros() const { return static_cast<unsigned>(std::countr_one(zero)); }
  // The largest power of two the value is known to be a multiple of (capped at 2^32).
  std::uint64_t guaranteedAlignment() const {
    unsigned zeros = trailingZeros();
    return std::uint64_t{1} << (zeros > 32 ? 32 : zeros);
  }
  // Whether the value is provably not a multiple of `alignment` (a power of two).
  bool provablyMisaligned(std::uint64_t alignment) const { return (one & (alignment - 1)) != 0; }

  // What both values share: the join at a merge of control flow.
  KnownBits meet(const KnownBits& other) const { return {zero & other.zero, one & other.one}; }

  // Only the low `width` bits (a `.b32` result): the rest are known zero.
  KnownBits truncated(unsigned width) const {
    if (width >= 64) return *this;
    std::uint64_t mask = (std::uint64_t{1} << width) - 1;
    return {(zero & mask) | ~mask, one & mask};
  }
  // Sign extension from `width` bits.
  KnownBits signExtended(unsigned width) const {
    if (width >= 64 || width == 0) return *this;
    KnownBits low = truncated(width);
    std::uint64_t high = ~((std::uint64_t{1} << width) - 1);
    std::uint64_t sign = std::uint64_t{1} << (width - 1);
    if (low.one & sign) return {low.zero & ~high, low.one | high};
    if (low.zero & sign) return low;
    return {low.zero & ~high, low.one};
  }
};

inline KnownBits operator&(const KnownBits& a, const KnownBits& b) { return {a.zero | b.zero, a.one & b.one}; }
inline KnownBits operator|(const KnownBits& a, const KnownBits& b) { return {a.zero & b.zero, a.one | b.one}; }
inline KnownBits operator^(const KnownBits& a, const KnownBits& b) {
  return {(a.zero & b.zero) | (a.one & b.one), (a.zero & b.one) | (a.one & b.zero)};
}
inline KnownBits operator~(const KnownBits& a) { return {a.one, a.zero}; }

// a + b + carry, with carry 0 or 1 (LLVM's computeForAddCarry).
inline KnownBits addWithCarry(const KnownBits& a, const KnownBits& b, bool carry) {
  std::uint64_t possibleSumZero = ~a.zero + ~b.zero + (carry ? 1 : 0);
  std::uint64_t possibleSumOne = a.one + b.one + (carry ? 1 : 0);
  std::uint64_t carryKnownZero = ~(possibleSumZero ^ a.zero ^ b.zero);
  std::uint64_t carryKnownOne = possibleSumOne ^ a.one ^ b.one;
  std::uint64_t known = (a.zero | a.one) & (b.zero | b.one) & (carryKnownZero | carryKnownOne);
  return {~possibleSumZero & known, possibleSumOne & known};
}
inline KnownBits operator+(const KnownBits& a, const KnownBits& b) { return addWithCarry(a, b, false); }
inline KnownBits operator-(const KnownBits& a, const KnownBits& b) { return addWithCarry(a, ~b, true); }

inline KnownBits operator*(const KnownBits& a, const KnownBits& b) {
  if (a.isConstant() && b.isConstant()) return KnownBits::constant(a.value() * b.value());
  // The low n bits of a product depend only on the low n bits of its factors.
  unsigned n = a.knownLowBits() < b.knownLowBits() ? a.knownLowBits() : b.knownLowBits();
  KnownBits result;
  if (n > 0) {
    std::uint64_t mask = n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
    std::uint64_t low = (a.one * b.one) & mask;
    result = {~low & mask, low};
  }
  unsigned zeros = a.trailingZeros() + b.trailingZeros();
  return {result.zero | KnownBits::alignedTo(zeros > 64 ? 64 : zeros).zero, result.one};
}

inline KnownBits shiftLeft(const KnownBits& a, unsigned amount) {
  if (amount >= 64) return KnownBits::constant(0);
  std::uint64_t low = amount == 0 ? 0 : (std::uint64_t{1} << amount) - 1;
  return {(a.zero << amount) | low, a.one << amount};
}
// Logical shift right of a `width`-bit value.
inline KnownBits shiftRight(const KnownBits& a, unsigned amount, unsigned width) {
  KnownBits value = a.truncated(width);
  if (amount >= 64) return KnownBits::constant(0);
  std::uint64_t high = amount == 0 ? 0 : ~(~std::uint64_t{0} >> amount);
  return {(value.zero >> amount) | high, value.one >> amount};
}
// Arithmetic shift right of a `width`-bit value: the vacated high bits copy its sign bit. The
// result is sign-extended to 64 bits; callers truncate it to the width they need.
inline KnownBits arithmeticShiftRight(const KnownBits& a, unsigned amount, unsigned width) {
  KnownBits extended = a.truncated(width).signExtended(width);
  KnownBits shifted{amount >= 64 ? 0 : (extended.zero >> amount), amount >= 64 ? 0 : (extended.one >> amount)};
  std::uint64_t vacated = amount == 0 ? 0 : (amount >= 64 ? ~std::uint64_t{0} : ~(~std::uint64_t{0} >> amount));
  if (extended.zero >> 63) shifted.zero |= vacated;
  if (extended.one >> 63) shifted.one |= vacated;
  return shifted;
}

}  // namespace ptx::flow

// ThreadValues: what the thread evaluator's two ways of evaluating (one thread at a time,
// flow/ThreadEvaluation.cpp, and every thread of a set at once, flow/ThreadColumns.cpp) share:
// the stand-ins for uniform inputs, the depth limit, and what an integer operation computes from
// its sources' values. Internal to the evaluator.
#pragma once

#include <cstdint>
#include <optional>

#include "flow/IntegerOps.h"

namespace ptx::flow::thread_values {

inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A value that is the same for every thread, drawn from the seed and what identifies it:
// 256-byte aligned and between 2^16 and 2^20, like the sizes and offsets real code computes
// with, so that products and sums of a few of them stay far from wrapping around 32 bits (an
// unsigned comparison of two wrapped sums would split threads that never split).
inline std::uint64_t uniformValue(std::uint64_t identity, std::uint64_t seed) {
  return ((mix(identity ^ mix(seed)) & 0xFFFull) + 0x100) << 8;
}

// How deep an evaluation follows definitions (each definition costs two levels: its operand
// and the definition behind it) before calling a value unknown.
constexpr int kMaxDepth = 48;

// Whether operationResult computes `operation` as binaryResult of operands 1 and 2 (both read,
// unknown when either is).
inline bool viaBinaryResult(IntegerOperation operation) {
  using Operation = IntegerOperation;
  switch (operation) {
    case Operation::Mapa: case Operation::Mov: case Operation::Cvta: case Operation::Cvt: case Operation::Setp:
    case Operation::Selp: case Operation::Not: case Operation::Neg: case Operation::Mul: case Operation::Mad:
    case Operation::Mul24: case Operation::Mad24:
      return false;
    default:
      return true;
  }
}

// What an integer operation other than a load computes, with `source(k)` giving the value of
// operand k (asked only for the operands the operation reads, in the order it reads them), or
// nullopt when the evaluator does not follow it.
template <typename Source>
std::optional<std::uint64_t> operationResult(const IntegerOp& op, std::uint32_t operandCount, Source&& source) {
  using Operation = IntegerOperation;
  unsigned bits = op.type.width();
  switch (op.operation) {
    case Operation::Mapa: {
      // The address in the other CTA's shared memory, evaluated as the same offset: which CTA
      // it reaches is the rank operand, which the race search reads itself.
      auto a = source(1);
      return a ? std::optional(truncateTo(*a, bits)) : std::nullopt;
    }
    case Operation::Mov:
    case Operation::Cvta:
    case Operation::Cvt: {
      auto a = source(1);
      if (!a) return std::nullopt;
      if (op.operation == Operation::Cvt && op.typeCount >= 2) {
        if (op.sourceType.isFloat()) return std::nullopt;
        return convertInteger(op, *a);
      }
      return op.operation == Operation::Mov ? truncateTo(*a, bits) : *a;
    }
    case Operation::Setp: {
      if (operandCount != 3 || op.comparison == Comparison::None) return std::nullopt;
      auto a = source(1);
      auto b = source(2);
      if (!a || !b) return std::nullopt;
      auto holds = comparisonHolds(op, *a, *b);
      return holds ? std::optional<std::uint64_t>(*holds ? 1 : 0) : std::nullopt;
    }
    case Operation::Selp: {
      auto c = source(3);
      if (!c) return std::nullopt;
      return (*c & 1) ? source(1) : source(2);
    }
    case Operation::Not:
    case Operation::Neg: {
      auto a = source(1);
      if (!a) return std::nullopt;
      return truncateTo(op.operation == Operation::Not ? ~*a : (0 - *a), bits);
    }
    default:
      break;
  }
  auto a = source(1);
  auto b = source(2);
  if (!a || !b) return std::nullopt;
  switch (op.operation) {
    case Operation::Mul:
    case Operation::Mad:
    case Operation::Mul24:
    case Operation::Mad24: {
      bool adds = op.operation == Operation::Mad || op.operation == Operation::Mad24;
      if (op.high && (op.operation == Operation::Mul24 || op.operation == Operation::Mad24)) return std::nullopt;
      std::optional<std::uint64_t> addend = 0;
      if (op.high) {
        auto upper = highProduct(op, *a, *b);
        if (!upper) return std::nullopt;
        if (!adds) return upper;
        addend = source(3);
        return addend ? std::optional(truncateTo(*upper + *addend, bits)) : std::nullopt;
      }
      if (adds) addend = source(3);
      if (!addend) return std::nullopt;
      return lowProduct(op, *a, *b, *addend);
    }
    default:
      return binaryResult(op, *a, *b);
  }
}

}  // namespace ptx::flow::thread_values

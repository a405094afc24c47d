// ConstantExpression: the integer value of a C++ constant expression, from its tokens, as the
// host-API rules need it: integer literals, the arithmetic, shift, bitwise, comparison, logical
// and conditional operators, casts to integer types (C-style, functional, static_cast), sizeof
// of the element types tensor maps are built from, and cuda.h's tensor-map enumerators. What a
// name stands for is asked of a NameResolver, which knows the scopes. Anything else — a call, a
// member, a floating literal, an overflow — has no value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuda/CppLexer.h"

namespace ptx::host {

// Macros, constants and array sizes that refer to one another, and nested parentheses: deeper
// than this is a cycle (`#define A B` / `#define B A`) or nothing a rule needs.
inline constexpr int kMaxDepth = 48;

struct ExpressionToken {
  std::string spelling;
  cuda::TokenKind kind;
};

// What the names in an expression stand for; `depth` counts the lookups and expansions so far.
class NameResolver {
 public:
  virtual ~NameResolver() = default;
  virtual std::optional<std::int64_t> valueOf(std::string_view name, int depth) const = 0;
  // Element `index` of the array `name` (`dims[0]`).
  virtual std::optional<std::int64_t> elementOf(std::string_view name, std::int64_t index, int depth) const = 0;
};

// The value, when every token is understood and the value is known.
std::optional<std::int64_t> evaluateConstantExpression(std::vector<ExpressionToken> tokens, const NameResolver& names,
                                                       int depth);

// cuda.h's tensor-map enumerators (CUDA 13.0) by name.
std::optional<std::int64_t> cudaEnumerator(std::string_view name);

// Integer types by spelling (`cuuint32_t`, `unsigned int`, `std::uint64_t`): bits and sign.
struct IntegerType {
  unsigned bits = 0;
  bool isSigned = false;
};
std::optional<IntegerType> integerTypeNamed(std::string_view spelling);

// `value` converted to `type` as C++ converts integers; nullopt when that needs more than 64 bits.
std::optional<std::int64_t> convertTo(std::int64_t value, IntegerType type);

}  // namespace ptx::host

// ConstantExpression: the integer value of a C++ constant expression's tokens (see the header).
#include "host_api/ConstantExpression.h"

#include <algorithm>
#include <limits>
#include <span>

namespace ptx::host {
namespace {

constexpr std::size_t kUnmatched = SIZE_MAX;

struct Enumerator {
  std::string_view name;
  std::int64_t value;
};

// The enumerators of cuda.h's tensor-map enums (CUDA 13.0), which a file uses by name.
constexpr Enumerator kCudaEnumerators[] = {
    {"CU_TENSOR_MAP_DATA_TYPE_UINT8", 0},
    {"CU_TENSOR_MAP_DATA_TYPE_UINT16", 1},
    {"CU_TENSOR_MAP_DATA_TYPE_UINT32", 2},
    {"CU_TENSOR_MAP_DATA_TYPE_INT32", 3},
    {"CU_TENSOR_MAP_DATA_TYPE_UINT64", 4},
    {"CU_TENSOR_MAP_DATA_TYPE_INT64", 5},
    {"CU_TENSOR_MAP_DATA_TYPE_FLOAT16", 6},
    {"CU_TENSOR_MAP_DATA_TYPE_FLOAT32", 7},
    {"CU_TENSOR_MAP_DATA_TYPE_FLOAT64", 8},
    {"CU_TENSOR_MAP_DATA_TYPE_BFLOAT16", 9},
    {"CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ", 10},
    {"CU_TENSOR_MAP_DATA_TYPE_TFLOAT32", 11},
    {"CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ", 12},
    {"CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B", 13},
    {"CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B", 14},
    {"CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B", 15},
    {"CU_TENSOR_MAP_INTERLEAVE_NONE", 0},
    {"CU_TENSOR_MAP_INTERLEAVE_16B", 1},
    {"CU_TENSOR_MAP_INTERLEAVE_32B", 2},
    {"CU_TENSOR_MAP_SWIZZLE_NONE", 0},
    {"CU_TENSOR_MAP_SWIZZLE_32B", 1},
    {"CU_TENSOR_MAP_SWIZZLE_64B", 2},
    {"CU_TENSOR_MAP_SWIZZLE_128B", 3},
    {"CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B", 4},
    {"CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B", 5},
    {"CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B", 6},
    {"CU_TENSOR_MAP_L2_PROMOTION_NONE", 0},
    {"CU_TENSOR_MAP_L2_PROMOTION_L2_64B", 1},
    {"CU_TENSOR_MAP_L2_PROMOTION_L2_128B", 2},
    {"CU_TENSOR_MAP_L2_PROMOTION_L2_256B", 3},
    {"CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE", 0},
    {"CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA", 1},
};

// Enum types whose values pass through a cast unchanged.
bool isCudaEnumType(std::string_view spelling) {
  static constexpr std::string_view kTypes[] = {
      "CUtensorMapDataType",     "CUtensorMapDataType_enum",    "CUtensorMapInterleave",  "CUtensorMapInterleave_enum",
      "CUtensorMapSwizzle",      "CUtensorMapSwizzle_enum",     "CUtensorMapL2promotion", "CUtensorMapL2promotion_enum",
      "CUtensorMapFloatOOBfill", "CUtensorMapFloatOOBfill_enum"};
  return std::find(std::begin(kTypes), std::end(kTypes), spelling) != std::end(kTypes);
}

// sizeof of the element types tensor maps are built for, on the x86-64 Linux host.
std::optional<std::int64_t> sizeOfType(std::string_view spelling) {
  if (auto integer = integerTypeNamed(spelling)) return integer->bits / 8;
  struct Size {
    std::string_view name;
    std::int64_t bytes;
  };
  static constexpr Size kSizes[] = {
      {"float", 4},         {"double", 8},    {"bool", 1},          {"half", 2},          {"__half", 2},
      {"nv_half", 2},       {"__nv_half", 2}, {"nv_bfloat16", 2},   {"__nv_bfloat16", 2}, {"__nv_fp8_e4m3", 1},
      {"__nv_fp8_e5m2", 1}, {"half2", 4},     {"__half2", 4},       {"nv_bfloat162", 4},  {"__nv_bfloat162", 4},
      {"float2", 8},        {"float4", 16},   {"int2", 8},          {"int4", 16},         {"uint2", 8},
      {"uint4", 16},        {"double2", 16},  {"CUtensorMap", 128},
  };
  for (const Size& size : kSizes)
    if (size.name == spelling) return size.bytes;
  return std::nullopt;
}

// A pp-number as an integer literal: decimal, hex, octal or binary, digit separators, integer
// suffixes. Floating literals and values beyond int64 give nullopt.
std::optional<std::int64_t> integerLiteral(std::string_view spelling) {
  std::optional<std::uint64_t> value = cuda::integerLiteralValue(spelling);
  if (!value || *value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
  return static_cast<std::int64_t>(*value);
}

using Value = std::optional<std::int64_t>;

Value applyBinary(std::string_view op, Value a, Value b) {
  if (!a || !b) return std::nullopt;
  std::int64_t x = *a, y = *b, r = 0;
  if (op == "+") return __builtin_add_overflow(x, y, &r) ? Value{} : Value{r};
  if (op == "-") return __builtin_sub_overflow(x, y, &r) ? Value{} : Value{r};
  if (op == "*") return __builtin_mul_overflow(x, y, &r) ? Value{} : Value{r};
  if (op == "/") return y == 0 || (x == std::numeric_limits<std::int64_t>::min() && y == -1) ? Value{} : Value{x / y};
  if (op == "%") return y == 0 || (x == std::numeric_limits<std::int64_t>::min() && y == -1) ? Value{} : Value{x % y};
  if (op == "<<") {
    if (x < 0 || y < 0 || y >= 63 || x > (std::numeric_limits<std::int64_t>::max() >> y)) return std::nullopt;
    return x << y;
  }
  if (op == ">>") return x < 0 || y < 0 || y >= 64 ? Value{} : Value{x >> y};
  if (op == "&") return x & y;
  if (op == "|") return x | y;
  if (op == "^") return x ^ y;
  if (op == "==") return x == y;
  if (op == "!=") return x != y;
  if (op == "<") return x < y;
  if (op == ">") return x > y;
  if (op == "<=") return x <= y;
  if (op == ">=") return x >= y;
  if (op == "&&") return x && y;
  if (op == "||") return x || y;
  return std::nullopt;
}

int binaryPrecedence(std::string_view op) {
  if (op == "||") return 1;
  if (op == "&&") return 2;
  if (op == "|") return 3;
  if (op == "^") return 4;
  if (op == "&") return 5;
  if (op == "==" || op == "!=") return 6;
  if (op == "<" || op == ">" || op == "<=" || op == ">=") return 7;
  if (op == "<<" || op == ">>") return 8;
  if (op == "+" || op == "-") return 9;
  if (op == "*" || op == "/" || op == "%") return 10;
  return 0;
}

// How a cast converts: to an integer type, or unchanged (CUDA enums, pointers); nullopt when
// the spelling is no type this evaluator knows.
struct CastType {
  std::optional<IntegerType> integer;
};

std::optional<CastType> castTypeOf(std::span<const std::string> words) {
  std::string joined;
  bool pointer = false;
  for (const std::string& word : words) {
    if (word == "*") {
      pointer = true;
      continue;
    }
    if (pointer) return std::nullopt;  // `int* const`: not a cast we follow.
    if (word == "const" || word == "std" || word == "::") continue;
    if (!joined.empty()) joined += ' ';
    joined += word;
  }
  if (joined.empty()) return std::nullopt;
  if (pointer) return CastType{};
  if (auto integer = integerTypeNamed(joined)) return CastType{integer};
  if (isCudaEnumType(joined)) return CastType{};
  return std::nullopt;
}

}  // namespace

std::optional<IntegerType> integerTypeNamed(std::string_view spelling) {
  std::string_view s = spelling;
  if (s.starts_with("std::")) s.remove_prefix(5);
  if (s.starts_with("::")) s.remove_prefix(2);
  struct Named {
    std::string_view name;
    IntegerType type;
  };
  static constexpr Named kTypes[] = {
      {"char", {8, true}},
      {"signed char", {8, true}},
      {"int8_t", {8, true}},
      {"unsigned char", {8, false}},
      {"uint8_t", {8, false}},
      {"short", {16, true}},
      {"short int", {16, true}},
      {"int16_t", {16, true}},
      {"unsigned short", {16, false}},
      {"unsigned short int", {16, false}},
      {"uint16_t", {16, false}},
      {"int", {32, true}},
      {"signed", {32, true}},
      {"signed int", {32, true}},
      {"int32_t", {32, true}},
      {"unsigned", {32, false}},
      {"unsigned int", {32, false}},
      {"uint32_t", {32, false}},
      {"cuuint32_t", {32, false}},
      {"long", {64, true}},
      {"long int", {64, true}},
      {"long long", {64, true}},
      {"long long int", {64, true}},
      {"int64_t", {64, true}},
      {"ptrdiff_t", {64, true}},
      {"intptr_t", {64, true}},
      {"ssize_t", {64, true}},
      {"unsigned long", {64, false}},
      {"unsigned long int", {64, false}},
      {"unsigned long long", {64, false}},
      {"unsigned long long int", {64, false}},
      {"uint64_t", {64, false}},
      {"cuuint64_t", {64, false}},
      {"size_t", {64, false}},
      {"uintptr_t", {64, false}},
  };
  for (const Named& named : kTypes)
    if (named.name == s) return named.type;
  return std::nullopt;
}

std::optional<std::int64_t> convertTo(std::int64_t value, IntegerType type) {
  if (type.bits >= 64) {
    if (!type.isSigned && value < 0) return std::nullopt;  // 2^64 - |value| does not fit.
    return value;
  }
  std::uint64_t modulus = std::uint64_t{1} << type.bits;
  std::uint64_t wrapped = static_cast<std::uint64_t>(value) & (modulus - 1);
  if (type.isSigned && wrapped >= modulus / 2)
    return static_cast<std::int64_t>(wrapped) - static_cast<std::int64_t>(modulus);
  return static_cast<std::int64_t>(wrapped);
}

std::optional<std::int64_t> cudaEnumerator(std::string_view name) {
  for (const Enumerator& e : kCudaEnumerators)
    if (e.name == name) return e.value;
  return std::nullopt;
}

namespace {

class ExpressionParser {
 public:
  // The tokens [begin, end) of `items`, whose brackets `partners` pairs.
  ExpressionParser(const NameResolver& names, const std::vector<ExpressionToken>& items,
                   const std::vector<std::size_t>& partners, std::size_t begin, std::size_t end, int depth)
      : names_(names), items_(items), partners_(partners), at_(begin), end_(end), depth_(depth) {}

  // The value, when every token was understood and the value is known.
  Value parseAll() {
    if (at_ >= end_ || depth_ > kMaxDepth) return std::nullopt;
    Value value = conditional();
    if (failed_ || at_ != end_) return std::nullopt;
    return value;
  }

 private:
  bool atEnd() const { return at_ >= end_; }
  // The partner of the bracket at `i` within this expression, or kUnmatched.
  std::size_t partner(std::size_t i) const { return partners_[i] < end_ ? partners_[i] : kUnmatched; }
  const std::string& peek(std::size_t ahead = 0) const {
    static const std::string kEmpty;
    return at_ + ahead < end_ ? items_[at_ + ahead].spelling : kEmpty;
  }
  bool accept(std::string_view s) {
    if (peek() != s || atEnd()) return false;
    ++at_;
    return true;
  }
  void expect(std::string_view s) {
    if (!accept(s)) failed_ = true;
  }
  // Skips a bracketed group that starts at the current token.
  void skipGroup() {
    if (partner(at_) == kUnmatched) {
      failed_ = true;
      at_ = end_;
      return;
    }
    at_ = partner(at_) + 1;
  }
  // The value of the tokens between the current bracket and its partner, which are consumed.
  Value inner() {
    std::size_t close = partner(at_);
    if (close == kUnmatched) {
      failed_ = true;
      at_ = end_;
      return std::nullopt;
    }
    std::size_t begin = at_ + 1;
    at_ = close + 1;
    return ExpressionParser(names_, items_, partners_, begin, close, depth_ + 1).parseAll();
  }
  // Words of a parenthesized type [at_ + 1, partner), or nullopt when it is not one we know.
  std::optional<CastType> typeInParentheses() const {
    std::size_t close = partner(at_);
    if (close == kUnmatched || close == at_ + 1) return std::nullopt;
    std::vector<std::string> words;
    for (std::size_t i = at_ + 1; i < close; ++i) {
      const ExpressionToken& item = items_[i];
      if (item.kind != cuda::TokenKind::Identifier && item.spelling != "*" && item.spelling != "::")
        return std::nullopt;
      words.push_back(item.spelling);
    }
    return castTypeOf(words);
  }
  static Value convert(Value value, const CastType& type) {
    if (!value || !type.integer) return value;
    return convertTo(*value, *type.integer);
  }

  // Recursion without consuming brackets (`- - - x`, `a ? b ? c : d : e`) is bounded too, so
  // that no input can exhaust the stack.
  struct Nesting {
    explicit Nesting(ExpressionParser& parser) : parser_(parser) {
      if (++parser_.nesting_ > kMaxNesting) parser_.failed_ = true;
    }
    ~Nesting() { --parser_.nesting_; }
    ExpressionParser& parser_;
  };
  static constexpr int kMaxNesting = 256;

  Value conditional() {
    Nesting nesting(*this);
    if (failed_) return std::nullopt;
    Value condition = binary(1);
    if (!accept("?")) return condition;
    Value whenTrue = conditional();
    expect(":");
    Value whenFalse = conditional();
    if (!condition) return std::nullopt;
    return *condition != 0 ? whenTrue : whenFalse;
  }

  Value binary(int minimum) {
    Value left = unary();
    while (!failed_ && !atEnd()) {
      std::string op = peek();
      int precedence = binaryPrecedence(op);
      if (precedence == 0 || precedence < minimum) break;
      ++at_;
      Value right = binary(precedence + 1);
      left = applyBinary(op, left, right);
    }
    return left;
  }

  Value unary() {
    Nesting nesting(*this);
    if (failed_ || atEnd()) {
      failed_ = true;
      return std::nullopt;
    }
    if (accept("+")) return unary();
    if (accept("-")) {
      Value v = unary();
      return v && *v != std::numeric_limits<std::int64_t>::min() ? Value{-*v} : Value{};
    }
    if (accept("~")) {
      Value v = unary();
      return v ? Value{~*v} : Value{};
    }
    if (accept("!")) {
      Value v = unary();
      return v ? Value{*v == 0} : Value{};
    }
    if (peek() == "*" || peek() == "&" || peek() == "++" || peek() == "--") {
      ++at_;
      unary();
      return std::nullopt;
    }
    if (peek() == "(") {
      if (auto type = typeInParentheses()) {
        at_ = partner(at_) + 1;
        return convert(unary(), *type);
      }
      return postfix(inner());
    }
    return postfix(primary());
  }

  Value postfix(Value value) {
    while (!failed_ && !atEnd()) {
      if (peek() == "(" || peek() == "[") {
        skipGroup();
        value = std::nullopt;
      } else if (peek() == "." || peek() == "->") {
        at_ += 2;
        value = std::nullopt;
      } else if (peek() == "++" || peek() == "--") {
        ++at_;
        value = std::nullopt;
      } else {
        break;
      }
    }
    return value;
  }

  Value primary() {
    const ExpressionToken& item = items_[at_];
    if (item.kind == cuda::TokenKind::Number) {
      ++at_;
      return integerLiteral(item.spelling);
    }
    if (item.kind == cuda::TokenKind::Character) {
      ++at_;
      return std::nullopt;
    }
    if (item.kind != cuda::TokenKind::Identifier && item.spelling != "::") {
      failed_ = true;
      return std::nullopt;
    }
    const std::string& word = item.spelling;
    if (word == "true" || word == "false") {
      ++at_;
      return word == "true";
    }
    if (word == "sizeof") {
      ++at_;
      if (peek() != "(") {
        unary();
        return std::nullopt;
      }
      std::size_t close = partner(at_);
      if (close == kUnmatched) {
        failed_ = true;
        return std::nullopt;
      }
      std::string joined;
      bool typeLike = true;
      for (std::size_t i = at_ + 1; i < close; ++i) {
        if (items_[i].kind != cuda::TokenKind::Identifier && items_[i].spelling != "::") typeLike = false;
        if (items_[i].spelling == "std" || items_[i].spelling == "::" || items_[i].spelling == "const") continue;
        if (!joined.empty()) joined += ' ';
        joined += items_[i].spelling;
      }
      at_ = close + 1;
      return typeLike ? sizeOfType(joined) : std::nullopt;
    }
    if (word == "static_cast" || word == "reinterpret_cast" || word == "const_cast") {
      ++at_;
      if (!accept("<")) {
        failed_ = true;
        return std::nullopt;
      }
      std::vector<std::string> words;
      int angle = 1;
      while (!atEnd() && angle > 0) {
        const std::string& s = peek();
        if (s == "<") ++angle;
        if (s == ">") --angle;
        if (s == ">>") angle -= 2;
        if (angle > 0) words.push_back(s);
        ++at_;
      }
      if (angle != 0 || peek() != "(") {
        failed_ = true;
        return std::nullopt;
      }
      std::optional<CastType> type = castTypeOf(words);
      Value value = inner();
      return type ? convert(value, *type) : Value{};
    }
    // A name, perhaps qualified (`::CU_TENSOR_MAP_SWIZZLE_128B`, `std::uint32_t`).
    std::string last;
    std::string joined;
    bool qualified = false;
    if (accept("::")) qualified = true;
    while (true) {
      if (atEnd() || items_[at_].kind != cuda::TokenKind::Identifier) {
        failed_ = true;
        return std::nullopt;
      }
      last = items_[at_].spelling;
      if (!joined.empty()) joined += "::";
      joined += last;
      ++at_;
      if (peek() == "::") {
        ++at_;
        qualified = true;
        continue;
      }
      break;
    }
    if (peek() == "(" || peek() == "{") {
      // A functional cast (`cuuint32_t(2)`, `uint64_t{M}`) or a call, whose value is unknown.
      std::optional<IntegerType> integer = integerTypeNamed(joined);
      if (integer || isCudaEnumType(last)) {
        Value value = inner();
        return integer && value ? convertTo(*value, *integer) : value;
      }
      skipGroup();
      return std::nullopt;
    }
    if (std::optional<std::int64_t> enumerator = cudaEnumerator(last)) return enumerator;
    if (qualified) return std::nullopt;
    if (peek() == "[") {
      Value index = inner();
      return index ? names_.elementOf(last, *index, depth_ + 1) : Value{};
    }
    return names_.valueOf(last, depth_ + 1);
  }

  const NameResolver& names_;
  const std::vector<ExpressionToken>& items_;
  const std::vector<std::size_t>& partners_;
  std::size_t at_;
  std::size_t end_;
  int depth_;
  int nesting_ = 0;
  bool failed_ = false;
};

}  // namespace

std::optional<std::int64_t> evaluateConstantExpression(std::vector<ExpressionToken> tokens, const NameResolver& names,
                                                       int depth) {
  std::vector<std::size_t> partners(tokens.size(), kUnmatched);
  std::vector<std::size_t> open;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& s = tokens[i].spelling;
    if (s == "(" || s == "[" || s == "{") open.push_back(i);
    if ((s == ")" || s == "]" || s == "}") && !open.empty()) {
      partners[open.back()] = i;
      partners[i] = open.back();
      open.pop_back();
    }
  }
  return ExpressionParser(names, tokens, partners, 0, tokens.size(), depth).parseAll();
}

}  // namespace ptx::host

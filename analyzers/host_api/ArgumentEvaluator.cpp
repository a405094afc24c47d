// ArgumentEvaluator: constant values of host-code expressions, names and arrays (see the header).
#include "host_api/ArgumentEvaluator.h"

#include <algorithm>
#include <limits>

namespace ptx::host {
namespace {

// Macros, constants and array sizes that refer to one another: deeper than this is a cycle
// (`#define A B` / `#define B A`) or nothing a rule needs.
constexpr int kMaxDepth = 48;

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

std::optional<std::int64_t> cudaEnumerator(std::string_view name) {
  for (const Enumerator& e : kCudaEnumerators)
    if (e.name == name) return e.value;
  return std::nullopt;
}

// Enum types whose values pass through a cast unchanged.
bool isCudaEnumType(std::string_view spelling) {
  static constexpr std::string_view kTypes[] = {
      "CUtensorMapDataType",     "CUtensorMapDataType_enum",     "CUtensorMapInterleave", "CUtensorMapInterleave_enum",
      "CUtensorMapSwizzle",      "CUtensorMapSwizzle_enum",      "CUtensorMapL2promotion",
      "CUtensorMapL2promotion_enum", "CUtensorMapFloatOOBfill", "CUtensorMapFloatOOBfill_enum"};
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
      {"float", 4},          {"double", 8},         {"bool", 1},           {"half", 2},
      {"__half", 2},         {"nv_half", 2},        {"__nv_half", 2},      {"nv_bfloat16", 2},
      {"__nv_bfloat16", 2},  {"__nv_fp8_e4m3", 1},  {"__nv_fp8_e5m2", 1},  {"half2", 4},
      {"__half2", 4},        {"nv_bfloat162", 4},   {"__nv_bfloat162", 4}, {"float2", 8},
      {"float4", 16},        {"int2", 8},           {"int4", 16},          {"uint2", 8},
      {"uint4", 16},         {"double2", 16},       {"CUtensorMap", 128},
  };
  for (const Size& size : kSizes)
    if (size.name == spelling) return size.bytes;
  return std::nullopt;
}

// Words that start or continue an expression or statement, never a declaration's type.
bool isExpressionKeyword(std::string_view word) {
  static constexpr std::string_view kWords[] = {
      "return", "case",   "throw",  "goto",     "co_return", "co_yield", "co_await", "delete", "new",
      "sizeof", "alignof", "typeid", "else",    "do",        "if",       "while",    "for",    "switch",
      "operator", "and",  "or",     "not",      "this",      "true",     "false",    "nullptr", "default",
      "break",  "continue"};
  return std::find(std::begin(kWords), std::end(kWords), word) != std::end(kWords);
}

// Specifiers after which a declared name is no constant this evaluator may read.
bool disqualifiesDeclaration(std::string_view word) {
  static constexpr std::string_view kWords[] = {"typedef", "using",  "extern", "volatile",  "template",
                                                "friend",  "mutable", "__device__", "__shared__", "__managed__"};
  return std::find(std::begin(kWords), std::end(kWords), word) != std::end(kWords);
}

bool isPointerOperator(std::string_view s) { return s == "*" || s == "&" || s == "&&"; }

// A pp-number as an integer literal: decimal, hex, octal or binary, digit separators, integer
// suffixes. Floating literals and values beyond int64 give nullopt.
std::optional<std::int64_t> integerLiteral(std::string_view spelling) {
  std::string digits;
  for (char c : spelling)
    if (c != '\'') digits += c;
  std::size_t end = digits.size();
  while (end > 0 && std::string_view("uUlLzZ").find(digits[end - 1]) != std::string_view::npos) --end;
  digits.resize(end);
  if (digits.empty()) return std::nullopt;
  unsigned base = 10;
  std::size_t at = 0;
  if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    at = 2;
  } else if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) {
    base = 2;
    at = 2;
  } else if (digits.size() > 1 && digits[0] == '0') {
    base = 8;
    at = 1;
  }
  if (at == digits.size()) return std::nullopt;
  std::uint64_t value = 0;
  for (; at < digits.size(); ++at) {
    char c = digits[at];
    unsigned digit;
    if (c >= '0' && c <= '9') digit = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f') digit = static_cast<unsigned>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') digit = static_cast<unsigned>(c - 'A' + 10);
    else return std::nullopt;
    if (digit >= base) return std::nullopt;
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / base) return std::nullopt;
    value = value * base + digit;
  }
  if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
  return static_cast<std::int64_t>(value);
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
  if (type.isSigned && wrapped >= modulus / 2) return static_cast<std::int64_t>(wrapped) - static_cast<std::int64_t>(modulus);
  return static_cast<std::int64_t>(wrapped);
}

// ---------------------------------------------------------------------------------------------
// HostTokens

HostTokens::HostTokens(const cuda::LexedSource& source, const cuda::PassView& view) : source_(source), view_(view) {
  const std::vector<cuda::Token>& tokens = source.tokens();
  std::string scratch;
  for (std::uint32_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].directive != cuda::kNoDirective || view.activity(i) == cuda::Truth::False) continue;
    raw_.push_back(i);
    if (source.hasSplice(tokens[i].range)) {
      splicedSpellings_.push_back(source.spelling(tokens[i]));
      spellings_.push_back(splicedSpellings_.back());
    } else {
      spellings_.push_back(source.text().substr(tokens[i].range.begin, tokens[i].range.end - tokens[i].range.begin));
    }
  }
  partners_.assign(raw_.size(), kNone);
  std::vector<std::uint32_t> open;
  for (std::uint32_t p = 0; p < raw_.size(); ++p) {
    std::string_view s = spellings_[p];
    if (s == "(" || s == "[" || s == "{") {
      open.push_back(p);
    } else if (s == ")" || s == "]" || s == "}") {
      char expected = s == ")" ? '(' : s == "]" ? '[' : '{';
      // A closer that does not match the innermost opener is left unmatched, which makes every
      // question about the code around it unanswerable rather than wrong.
      if (!open.empty() && spellings_[open.back()][0] == expected) {
        partners_[open.back()] = p;
        partners_[p] = open.back();
        open.pop_back();
      }
    }
  }
}

bool HostTokens::isIdentifier(std::uint32_t position) const {
  return position < size() && source_.tokens()[raw_[position]].kind == cuda::TokenKind::Identifier;
}

bool HostTokens::isNumber(std::uint32_t position) const {
  return position < size() && source_.tokens()[raw_[position]].kind == cuda::TokenKind::Number;
}

ByteRange HostTokens::range(std::uint32_t position) const { return source_.tokens()[raw_[position]].range; }

ByteRange HostTokens::range(std::uint32_t begin, std::uint32_t end) const {
  if (end <= begin) {
    std::uint32_t at = begin < size() ? range(begin).begin : static_cast<std::uint32_t>(source_.text().size());
    return {at, at};
  }
  return {range(begin).begin, range(end - 1).end};
}

// ---------------------------------------------------------------------------------------------
// Expressions

// One expression's tokens: host tokens or a macro's replacement list.
struct Item {
  std::string spelling;
  cuda::TokenKind kind;
};

class ExpressionParser {
 public:
  ExpressionParser(const ArgumentEvaluator& evaluator, std::vector<Item> items, std::uint32_t useSite, int depth)
      : evaluator_(evaluator), items_(std::move(items)), useSite_(useSite), depth_(depth) {
    partners_.assign(items_.size(), kNone);
    std::vector<std::size_t> open;
    for (std::size_t i = 0; i < items_.size(); ++i) {
      const std::string& s = items_[i].spelling;
      if (s == "(" || s == "[" || s == "{") open.push_back(i);
      if ((s == ")" || s == "]" || s == "}") && !open.empty()) {
        partners_[open.back()] = i;
        partners_[i] = open.back();
        open.pop_back();
      }
    }
  }

  // The value, when every token was understood and the value is known.
  Value parseAll() {
    if (items_.empty() || depth_ > kMaxDepth) return std::nullopt;
    Value value = conditional();
    if (failed_ || at_ != items_.size()) return std::nullopt;
    return value;
  }

 private:
  bool atEnd() const { return at_ >= items_.size(); }
  const std::string& peek(std::size_t ahead = 0) const {
    static const std::string kEmpty;
    return at_ + ahead < items_.size() ? items_[at_ + ahead].spelling : kEmpty;
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
    if (partners_[at_] == kNone) {
      failed_ = true;
      at_ = items_.size();
      return;
    }
    at_ = partners_[at_] + 1;
  }
  // The value of the tokens between the current bracket and its partner, which are consumed.
  Value inner() {
    std::size_t close = partners_[at_];
    if (close == kNone) {
      failed_ = true;
      at_ = items_.size();
      return std::nullopt;
    }
    std::vector<Item> inside(items_.begin() + static_cast<std::ptrdiff_t>(at_ + 1),
                             items_.begin() + static_cast<std::ptrdiff_t>(close));
    at_ = close + 1;
    return ExpressionParser(evaluator_, std::move(inside), useSite_, depth_ + 1).parseAll();
  }
  // Words of a parenthesized type [at_ + 1, partner), or nullopt when it is not one we know.
  std::optional<CastType> typeInParentheses() const {
    std::size_t close = partners_[at_];
    if (close == kNone || close == at_ + 1) return std::nullopt;
    std::vector<std::string> words;
    for (std::size_t i = at_ + 1; i < close; ++i) {
      const Item& item = items_[i];
      if (item.kind != cuda::TokenKind::Identifier && item.spelling != "*" && item.spelling != "::") return std::nullopt;
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
        at_ = partners_[at_] + 1;
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
    const Item& item = items_[at_];
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
      std::size_t close = partners_[at_];
      if (close == kNone) {
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
      std::optional<ConstantArray> array = evaluator_.arrayFor(last, useSite_, depth_ + 1);
      if (!index || !array || *index < 0 || static_cast<std::size_t>(*index) >= array->elements.size()) return std::nullopt;
      return array->elements[static_cast<std::size_t>(*index)].value;
    }
    return evaluator_.valueOfName(last, useSite_, depth_ + 1);
  }

  const ArgumentEvaluator& evaluator_;
  std::vector<Item> items_;
  std::vector<std::size_t> partners_;
  std::size_t at_ = 0;
  std::uint32_t useSite_;
  int depth_;
  int nesting_ = 0;
  bool failed_ = false;
};

// ---------------------------------------------------------------------------------------------
// Declarations

struct ArgumentEvaluator::Declaration {
  enum class Kind : std::uint8_t { Scalar, Array, Other };
  Kind kind = Kind::Other;
  std::uint32_t name = kNone;
  bool isConst = false;
  std::optional<IntegerType> type;  // The declared integer type, when it is one.
  // Scalar: the initializer expression. Array: the element list inside the braces.
  std::uint32_t initBegin = 0, initEnd = 0;
  std::uint32_t open = kNone;  // Array: the initializer's `{`.
  // Array: the element count's expression (`[N]`, `std::array<T, N>`); empty for `[]`.
  std::uint32_t countBegin = 0, countEnd = 0;
  bool stdArray = false;
  std::uint32_t end = kNone;  // The `;` or `,` after the declarator.
};

ArgumentEvaluator::ArgumentEvaluator(const HostTokens& tokens, std::vector<std::uint32_t> arrayArgumentUses)
    : tokens_(tokens), arrayArgumentUses_(std::move(arrayArgumentUses)) {
  std::sort(arrayArgumentUses_.begin(), arrayArgumentUses_.end());
}

std::optional<std::int64_t> ArgumentEvaluator::valueOf(std::uint32_t begin, std::uint32_t end) const {
  return valueOfPositions(begin, end, 0);
}

std::optional<std::int64_t> ArgumentEvaluator::valueOfPositions(std::uint32_t begin, std::uint32_t end, int depth) const {
  if (end <= begin || end > tokens_.size()) return std::nullopt;
  std::vector<Item> items;
  items.reserve(end - begin);
  for (std::uint32_t p = begin; p < end; ++p)
    items.push_back({std::string(tokens_.spelling(p)), tokens_.source().tokens()[tokens_.rawIndex(p)].kind});
  return ExpressionParser(*this, std::move(items), begin, depth).parseAll();
}

std::optional<std::int64_t> ArgumentEvaluator::valueOfName(std::string_view name, std::uint32_t useSite, int depth) const {
  if (depth > kMaxDepth) return std::nullopt;
  if (auto enumerator = cudaEnumerator(name)) return enumerator;
  // The preprocessor runs first: a macro of the file wins over any declaration.
  if (const cuda::MacroDefinition* macro = tokens_.view().macroAt(name, tokens_.rawIndex(useSite))) {
    if (macro->functionLike || macro->defined != cuda::Truth::True || macro->bodyEnd <= macro->bodyBegin) return std::nullopt;
    std::vector<Item> items;
    for (std::uint32_t raw = macro->bodyBegin; raw < macro->bodyEnd; ++raw) {
      const cuda::Token& token = tokens_.source().tokens()[raw];
      items.push_back({tokens_.source().spelling(token), token.kind});
    }
    return ExpressionParser(*this, std::move(items), useSite, depth + 1).parseAll();
  }
  std::optional<Declaration> declaration = declarationOf(name, useSite);
  if (!declaration || declaration->kind != Declaration::Kind::Scalar || !declaration->isConst) return std::nullopt;
  // The initializer's names are those in scope where it is written.
  Value value = valueOfPositions(declaration->initBegin, declaration->initEnd, depth + 1);
  if (value && declaration->type) return convertTo(*value, *declaration->type);
  return value;
}

std::optional<ConstantArray> ArgumentEvaluator::arrayFor(std::string_view name, std::uint32_t useSite, int depth) const {
  if (depth > kMaxDepth) return std::nullopt;
  std::optional<Declaration> declaration = declarationOf(name, useSite);
  if (!declaration || declaration->kind != Declaration::Kind::Array) return std::nullopt;
  if (!declaration->isConst && changedAfter(*declaration)) return std::nullopt;
  std::uint32_t begin = declaration->initBegin, end = declaration->initEnd;
  // `std::array<T, N> a = {{1, 2}}`: the aggregate's inner braces.
  if (declaration->stdArray && end > begin && tokens_.is(begin, "{") && tokens_.partner(begin) + 1 == end) {
    ++begin;
    --end;
  }
  ConstantArray array;
  array.initializer = tokens_.range(declaration->open, tokens_.partner(declaration->open) + 1);
  std::uint32_t elementBegin = begin;
  for (std::uint32_t p = begin; p <= end; ++p) {
    if (p < end && (tokens_.is(p, "(") || tokens_.is(p, "[") || tokens_.is(p, "{"))) {
      if (tokens_.partner(p) == kNone || tokens_.partner(p) >= end) return std::nullopt;
      p = tokens_.partner(p);
      continue;
    }
    if (p < end && !tokens_.is(p, ",")) continue;
    if (p == elementBegin) {
      if (p == end && !array.elements.empty()) break;  // A trailing comma.
      if (p == end) break;                             // `{}`.
      return std::nullopt;
    }
    if (tokens_.is(elementBegin, ".")) return std::nullopt;  // Designated initializers.
    array.elements.push_back({valueOfPositions(elementBegin, p, depth + 1), tokens_.range(elementBegin, p)});
    elementBegin = p + 1;
  }
  if (declaration->countEnd > declaration->countBegin) {
    Value count = valueOfPositions(declaration->countBegin, declaration->countEnd, depth + 1);
    if (count) {
      if (*count < static_cast<std::int64_t>(array.elements.size()) || *count > 64) return std::nullopt;
      // The elements the initializer leaves out are zero.
      while (array.elements.size() < static_cast<std::size_t>(*count)) array.elements.push_back({0, array.initializer});
    }
  }
  return array;
}

std::optional<ConstantArray> ArgumentEvaluator::arrayOf(std::uint32_t begin, std::uint32_t end) const {
  std::uint32_t name = arrayNameOf(tokens_, begin, end);
  if (name == kNone) return std::nullopt;
  return arrayFor(tokens_.spelling(name), name, 0);
}

std::uint32_t ArgumentEvaluator::arrayNameOf(const HostTokens& tokens, std::uint32_t begin, std::uint32_t end) {
  if (end == begin + 1 && tokens.isIdentifier(begin)) return begin;
  if (end == begin + 5 && tokens.isIdentifier(begin) && tokens.is(begin + 1, ".") && tokens.is(begin + 2, "data") &&
      tokens.is(begin + 3, "(") && tokens.is(begin + 4, ")"))
    return begin;
  if (end == begin + 5 && tokens.is(begin, "&") && tokens.isIdentifier(begin + 1) && tokens.is(begin + 2, "[") &&
      tokens.is(begin + 3, "0") && tokens.is(begin + 4, "]"))
    return begin + 1;
  return kNone;
}

std::optional<ArgumentEvaluator::Declaration> ArgumentEvaluator::declarationOf(std::string_view name,
                                                                               std::uint32_t useSite) const {
  // Backwards from the use, in the scopes that are still open there: a block that closed
  // before the use is skipped whole (but an unscoped enum's enumerators leak out of it).
  std::uint32_t p = useSite;
  while (p > 0) {
    --p;
    if (tokens_.is(p, "}")) {
      std::uint32_t open = tokens_.partner(p);
      if (open == kNone) return std::nullopt;
      if (std::optional<Declaration> enumerator = enumeratorIn(open, name)) return enumerator;
      p = open;
      continue;
    }
    if (!tokens_.isIdentifier(p) || tokens_.spelling(p) != name || p == 0) continue;
    std::string_view before = tokens_.spelling(p - 1);
    bool declaratorStart = tokens_.isIdentifier(p - 1) ? !isExpressionKeyword(before)
                                                         : isPointerOperator(before) || before == ">" || before == ">>" ||
                                                               before == ",";
    if (!declaratorStart) continue;
    if (std::optional<Declaration> declaration = parseDeclaration(p)) return declaration;
  }
  return std::nullopt;
}

std::optional<ArgumentEvaluator::Declaration> ArgumentEvaluator::enumeratorIn(std::uint32_t open,
                                                                              std::string_view name) const {
  // Only an unscoped enum's body: `enum [name] [: type] {`.
  std::uint32_t p = open;
  bool isEnum = false;
  for (int steps = 0; steps < 8 && p > 0; ++steps) {
    --p;
    if (tokens_.is(p, "enum")) {
      isEnum = !tokens_.is(p + 1, "class") && !tokens_.is(p + 1, "struct");
      break;
    }
    if (!tokens_.isIdentifier(p) && !tokens_.is(p, ":") && !tokens_.is(p, "::")) break;
  }
  if (!isEnum) return std::nullopt;
  std::uint32_t close = tokens_.partner(open);
  std::uint32_t start = open + 1;
  for (std::uint32_t q = open + 1; q <= close; ++q) {
    if (q < close && (tokens_.is(q, "(") || tokens_.is(q, "["))) {
      if (tokens_.partner(q) == kNone) return std::nullopt;
      q = tokens_.partner(q);
      continue;
    }
    if (q < close && !tokens_.is(q, ",")) continue;
    if (q > start && tokens_.spelling(start) == name) {
      Declaration declaration;
      declaration.name = start;
      declaration.end = q;
      // An enumerator without `= value` is one more than the one before: not followed here.
      if (tokens_.is(start + 1, "=") && start + 2 < q) {
        declaration.kind = Declaration::Kind::Scalar;
        declaration.isConst = true;
        declaration.initBegin = start + 2;
        declaration.initEnd = q;
      }
      return declaration;
    }
    start = q + 1;
  }
  return std::nullopt;
}

std::optional<ArgumentEvaluator::Declaration> ArgumentEvaluator::parseDeclaration(std::uint32_t namePosition) const {
  // The statement's start: after the `;`, `{`, `}` or `:` before it. An unmatched `(` or `[`
  // means a parameter, a for-init or a condition: a declaration, but of no constant we read.
  std::uint32_t start = namePosition;
  bool inParentheses = false;
  while (start > 0) {
    std::uint32_t q = start - 1;
    std::string_view s = tokens_.spelling(q);
    if (s == ";" || s == "{" || s == "}" || s == ":") break;
    if (s == ")" || s == "]") {
      if (tokens_.partner(q) == kNone) return std::nullopt;
      start = tokens_.partner(q);
      continue;
    }
    if (s == "(" || s == "[") {
      inParentheses = true;
      break;
    }
    start = q;
  }

  // Specifiers, then the first declarator's name.
  Declaration declaration;
  bool disqualified = false;
  bool sawType = false;
  bool pointer = false;
  std::string typeWords;
  std::uint32_t p = start;
  std::uint32_t lastIdentifier = kNone;
  while (p <= namePosition) {
    std::string_view s = tokens_.spelling(p);
    if (tokens_.isIdentifier(p)) {
      if (isExpressionKeyword(s)) return std::nullopt;
      if ((s == "alignas" || s == "__align__" || s == "__attribute__" || s == "__declspec" || s == "decltype") &&
          tokens_.is(p + 1, "(")) {
        if (tokens_.partner(p + 1) == kNone) return std::nullopt;
        disqualified = disqualified || s == "decltype";
        p = tokens_.partner(p + 1) + 1;
        continue;
      }
      if (disqualifiesDeclaration(s)) disqualified = true;
      if (s == "const" || s == "constexpr") declaration.isConst = true;
      if (lastIdentifier != kNone) sawType = true;
      lastIdentifier = p;
      ++p;
      if (tokens_.is(p, "<")) {
        // Template arguments of the type: `std::array<cuuint64_t, 2>`.
        int angle = 0;
        std::uint32_t lastComma = kNone;
        for (; p < namePosition; ++p) {
          std::string_view t = tokens_.spelling(p);
          if (t == "<") ++angle;
          if (t == ">") --angle;
          if (t == ">>") angle -= 2;
          if (t == ";" || t == "{" || t == "}") return std::nullopt;
          if (t == "," && angle == 1) lastComma = p;
          if (angle <= 0) break;
        }
        if (angle != 0) return std::nullopt;
        if (s == "array" && lastComma != kNone) {
          declaration.stdArray = true;
          declaration.countBegin = lastComma + 1;
          declaration.countEnd = p;
        }
        sawType = true;
        lastIdentifier = kNone;
        ++p;
      }
      continue;
    }
    if (s == "::") {
      ++p;
      continue;
    }
    if (isPointerOperator(s)) {
      pointer = true;
      ++p;
      continue;
    }
    if (s == "[" && tokens_.is(p + 1, "[") && tokens_.partner(p) != kNone) {
      p = tokens_.partner(p) + 1;
      continue;
    }
    break;
  }
  // The first declarator's name is the last identifier of that run; what came before it is the type.
  if (lastIdentifier == kNone || !sawType) return std::nullopt;
  for (std::uint32_t q = start; q < lastIdentifier; ++q) {
    if (!tokens_.isIdentifier(q)) continue;
    std::string_view word = tokens_.spelling(q);
    if (word == "const" || word == "constexpr" || word == "static" || word == "inline" || word == "constinit" ||
        word == "thread_local" || word == "std" || word == "__host__" || word == "__constant__")
      continue;
    if (!typeWords.empty()) typeWords += ' ';
    typeWords += word;
  }
  declaration.type = integerTypeNamed(typeWords);

  // Walk the declarators (`constexpr int BM = 128, BN = 64;`) up to the name asked about.
  std::uint32_t name = lastIdentifier;
  while (true) {
    std::uint32_t a = name + 1;
    bool isArray = false;
    bool other = false;
    std::uint32_t countBegin = 0, countEnd = 0;
    if (tokens_.is(a, "[")) {
      std::uint32_t close = tokens_.partner(a);
      if (close == kNone) return std::nullopt;
      isArray = true;
      countBegin = a + 1;
      countEnd = close;
      a = close + 1;
      if (tokens_.is(a, "[")) other = true;  // Arrays of arrays: not followed.
      while (tokens_.is(a, "[") && tokens_.partner(a) != kNone) a = tokens_.partner(a) + 1;
    }
    std::uint32_t initBegin = 0, initEnd = 0, open = kNone;
    if (tokens_.is(a, "(")) {
      // A function declaration, or direct-initialization: neither is read.
      if (tokens_.partner(a) == kNone) return std::nullopt;
      other = true;
      a = tokens_.partner(a) + 1;
    } else if (tokens_.is(a, "=") && tokens_.is(a + 1, "{")) {
      open = a + 1;
    } else if (tokens_.is(a, "{")) {
      open = a;
    } else if (tokens_.is(a, "=")) {
      initBegin = a + 1;
      std::uint32_t q = initBegin;
      while (q < tokens_.size() && !tokens_.is(q, ",") && !tokens_.is(q, ";") && !tokens_.is(q, ")") &&
             !tokens_.is(q, "}")) {
        if (tokens_.is(q, "(") || tokens_.is(q, "[") || tokens_.is(q, "{")) {
          if (tokens_.partner(q) == kNone) return std::nullopt;
          q = tokens_.partner(q);
        }
        ++q;
      }
      initEnd = q;
      a = q;
    }
    if (open != kNone) {
      if (tokens_.partner(open) == kNone) return std::nullopt;
      a = tokens_.partner(open) + 1;
      initBegin = open + 1;
      initEnd = tokens_.partner(open);
    }
    if (!tokens_.is(a, ",") && !tokens_.is(a, ";") && !(inParentheses && tokens_.is(a, ")"))) return std::nullopt;
    if (name == namePosition) {
      declaration.name = name;
      declaration.end = a;
      bool readable = !disqualified && !pointer && !other && !inParentheses;
      if (readable && isArray && open != kNone && !declaration.stdArray) {
        declaration.kind = Declaration::Kind::Array;
        declaration.countBegin = countBegin;
        declaration.countEnd = countEnd;
      } else if (readable && !isArray && declaration.stdArray && open != kNone) {
        declaration.kind = Declaration::Kind::Array;
      } else if (readable && !isArray && !declaration.stdArray && initEnd > initBegin) {
        declaration.kind = Declaration::Kind::Scalar;
      }
      declaration.initBegin = initBegin;
      declaration.initEnd = initEnd;
      declaration.open = open;
      return declaration;
    }
    if (!tokens_.is(a, ",") || a > namePosition) return std::nullopt;
    // The next declarator: `, *p` or `, name`.
    std::uint32_t next = a + 1;
    pointer = false;
    while (next < namePosition && isPointerOperator(tokens_.spelling(next))) {
      pointer = true;
      ++next;
    }
    if (!tokens_.isIdentifier(next) || next > namePosition) return std::nullopt;
    name = next;
  }
}

std::uint32_t ArgumentEvaluator::enclosingOpenBrace(std::uint32_t position) const {
  std::uint32_t p = position;
  while (p > 0) {
    --p;
    if (tokens_.is(p, "}")) {
      if (tokens_.partner(p) == kNone) return kNone;
      p = tokens_.partner(p);
      continue;
    }
    if (tokens_.is(p, "{")) return p;
  }
  return kNone;
}

bool ArgumentEvaluator::isInsideFunction(std::uint32_t position) const {
  for (std::uint32_t open = enclosingOpenBrace(position); open != kNone; open = enclosingOpenBrace(open)) {
    if (open == 0) return false;
    std::string_view before = tokens_.spelling(open - 1);
    // A function body, lambda or control statement: `) {`, `) const {`, `else {`, `[&] {`.
    static constexpr std::string_view kBodyAfter[] = {")", "]", "const", "noexcept", "override", "final",
                                                      "mutable", "else", "do", "try"};
    if (std::find(std::begin(kBodyAfter), std::end(kBodyAfter), before) != std::end(kBodyAfter)) return true;
  }
  return false;
}

bool ArgumentEvaluator::changedAfter(const Declaration& declaration) const {
  // A non-const array keeps its initializer only where every later mention of it, to the end
  // of its block, is one of the checked calls' array arguments. Outside functions anything in
  // the program may write it.
  if (!isInsideFunction(declaration.name)) return true;
  std::uint32_t open = enclosingOpenBrace(declaration.name);
  std::uint32_t close = open == kNone ? kNone : tokens_.partner(open);
  if (close == kNone) return true;
  std::string_view name = tokens_.spelling(declaration.name);
  for (std::uint32_t p = declaration.end; p < close; ++p) {
    if (!tokens_.isIdentifier(p) || tokens_.spelling(p) != name) continue;
    if (!std::binary_search(arrayArgumentUses_.begin(), arrayArgumentUses_.end(), p)) return true;
  }
  return false;
}

}  // namespace ptx::host

#include "ConstantExpression.h"

#include <cctype>

#include "model/Module.h"

namespace ptx::flow {
namespace {

// Recursive descent over the C precedence levels PTX uses; every failure yields nullopt.
class Evaluator {
 public:
  explicit Evaluator(std::string_view text) : text_(text) {}

  std::optional<std::int64_t> run() {
    auto value = binary(0);
    skipSpace();
    if (!value || position_ != text_.size()) return std::nullopt;
    return value;
  }

 private:
  struct Operator {
    std::string_view spelling;
    int precedence;
  };

  void skipSpace() {
    while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_]))) ++position_;
  }

  // The binary operator at the current position with at least `minimum` precedence.
  std::optional<Operator> peekOperator(int minimum) {
    static constexpr Operator kOperators[] = {{"<<", 5}, {">>", 5}, {"|", 1}, {"^", 2}, {"&", 3},
                                              {"+", 6}, {"-", 6}, {"*", 7}, {"/", 7}, {"%", 7}};
    skipSpace();
    std::string_view rest = text_.substr(position_);
    for (const Operator& op : kOperators) {
      if (!rest.starts_with(op.spelling)) continue;
      // `&&` and `||` are logical operators; not used in addresses, so not supported.
      if (op.spelling.size() == 1 && rest.size() > 1 && rest[1] == rest[0] && (rest[0] == '&' || rest[0] == '|')) {
        return std::nullopt;
      }
      if (op.precedence < minimum) return std::nullopt;
      return op;
    }
    return std::nullopt;
  }

  std::optional<std::int64_t> binary(int minimum) {
    auto left = unary();
    if (!left) return std::nullopt;
    while (auto op = peekOperator(minimum)) {
      position_ += op->spelling.size();
      auto right = binary(op->precedence + 1);
      if (!right) return std::nullopt;
      auto a = static_cast<std::uint64_t>(*left);
      auto b = static_cast<std::uint64_t>(*right);
      std::uint64_t result = 0;
      std::string_view s = op->spelling;
      if (s == "+") result = a + b;
      else if (s == "-") result = a - b;
      else if (s == "*") result = a * b;
      else if (s == "/" || s == "%") {
        if (*right == 0) return std::nullopt;
        result = static_cast<std::uint64_t>(s == "/" ? *left / *right : *left % *right);
      } else if (s == "<<") result = b >= 64 ? 0 : a << b;
      else if (s == ">>") result = static_cast<std::uint64_t>(b >= 64 ? (*left < 0 ? -1 : 0) : *left >> b);
      else if (s == "&") result = a & b;
      else if (s == "|") result = a | b;
      else if (s == "^") result = a ^ b;
      left = static_cast<std::int64_t>(result);
    }
    return left;
  }

  std::optional<std::int64_t> unary() {
    skipSpace();
    if (position_ >= text_.size()) return std::nullopt;
    char c = text_[position_];
    if (c == '-' || c == '+' || c == '~' || c == '!') {
      ++position_;
      auto inner = unary();
      if (!inner) return std::nullopt;
      auto bits = static_cast<std::uint64_t>(*inner);
      if (c == '-') return static_cast<std::int64_t>(~bits + 1);
      if (c == '~') return static_cast<std::int64_t>(~bits);
      if (c == '!') return *inner == 0 ? 1 : 0;
      return inner;
    }
    if (c == '(') {
      ++position_;
      auto inner = binary(0);
      skipSpace();
      if (!inner || position_ >= text_.size() || text_[position_] != ')') return std::nullopt;
      ++position_;
      return inner;
    }
    std::size_t start = position_;
    while (position_ < text_.size() && std::isalnum(static_cast<unsigned char>(text_[position_]))) ++position_;
    auto literal = parseIntegerLiteral(text_.substr(start, position_ - start));
    if (!literal) return std::nullopt;
    return static_cast<std::int64_t>(*literal);
  }

  std::string_view text_;
  std::size_t position_ = 0;
};

}  // namespace

std::optional<std::int64_t> evaluateConstant(std::string_view text) { return Evaluator(text).run(); }

}  // namespace ptx::flow

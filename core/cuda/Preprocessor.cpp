// Preprocessor: three-valued evaluation of a CUDA source's conditionals for one device pass.
#include "cuda/Preprocessor.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace ptx::cuda {

Truth operator&&(Truth a, Truth b) {
  if (a == Truth::False || b == Truth::False) return Truth::False;
  if (a == Truth::True && b == Truth::True) return Truth::True;
  return Truth::Unknown;
}

namespace {

Truth orTruth(Truth a, Truth b) {
  if (a == Truth::True || b == Truth::True) return Truth::True;
  if (a == Truth::False && b == Truth::False) return Truth::False;
  return Truth::Unknown;
}
Truth notTruth(Truth a) {
  if (a == Truth::Unknown) return a;
  return a == Truth::True ? Truth::False : Truth::True;
}

// A value of a `#if` expression: known, or unknown because it depends on a macro we cannot see.
struct Value {
  bool known = true;
  std::int64_t value = 0;
  static Value unknown() { return {false, 0}; }
};

}  // namespace

bool isCompilerMacroName(std::string_view name) {
  static constexpr std::string_view kPrefixes[] = {"__CUDA_ARCH", "__CUDACC", "__NVCC__", "__clang", "__CUDA_",
                                                   "_MSC_VER",   "__GNUC",   "__NVCOMPILER", "__INTEL", "__HIP",
                                                   "__clang__"};
  for (std::string_view prefix : kPrefixes)
    if (name.starts_with(prefix)) return true;
  return false;
}

const MacroDefinition* PassView::macroAt(std::string_view name, std::uint32_t index) const {
  auto it = events_.find(std::string(name));
  if (it == events_.end()) return nullptr;
  const auto& events = it->second;
  auto after = std::upper_bound(events.begin(), events.end(), index,
                                [](std::uint32_t i, const std::pair<std::uint32_t, std::int32_t>& e) { return i < e.first; });
  if (after == events.begin()) return nullptr;
  --after;
  return after->second < 0 ? nullptr : &definitions_[static_cast<std::size_t>(after->second)];
}

std::optional<std::string_view> PassView::predefined(std::string_view name) const {
  auto it = predefined_.find(std::string(name));
  if (it == predefined_.end()) return std::nullopt;
  return std::string_view(it->second);
}

// Evaluates the token range of one `#if`/`#elif` expression.
class ConditionEvaluator {
 public:
  ConditionEvaluator(const LexedSource& source, PassView& view, std::uint32_t at)
      : source_(source), view_(view), at_(at) {}

  Value evaluate(std::uint32_t begin, std::uint32_t end) {
    tokens_.clear();
    expand(begin, end, 0);
    position_ = 0;
    Value value = conditional();
    if (position_ != tokens_.size()) return Value::unknown();
    return value;
  }

 private:
  // An expression token after macro expansion: a number, an operator, or an unknown value.
  struct Item {
    enum Kind : std::uint8_t { Number, Operator, Unknown } kind = Number;
    std::int64_t value = 0;
    std::string op;
  };

  void expand(std::uint32_t begin, std::uint32_t end, int depth) {
    const auto& tokens = source_.tokens();
    std::string scratch;
    for (std::uint32_t i = begin; i < end; ++i) {
      const Token& token = tokens[i];
      std::string_view spelling = source_.spellingView(token, scratch);
      if (token.kind == TokenKind::Number) {
        tokens_.push_back(number(spelling));
        continue;
      }
      if (token.kind == TokenKind::Character) {
        Item item;
        item.value = spelling.size() >= 3 ? static_cast<unsigned char>(spelling[1]) : 0;
        if (spelling.size() > 3) item.kind = Item::Unknown;
        tokens_.push_back(item);
        continue;
      }
      if (token.kind != TokenKind::Identifier) {
        Item item;
        item.kind = Item::Operator;
        item.op = std::string(spelling);
        tokens_.push_back(std::move(item));
        continue;
      }
      if (spelling == "defined") {
        std::uint32_t j = i + 1;
        bool parenthesized = j < end && source_.is(tokens[j], "(");
        if (parenthesized) ++j;
        if (j >= end || tokens[j].kind != TokenKind::Identifier) {
          tokens_.push_back({Item::Unknown, 0, {}});
          i = j;
          continue;
        }
        Truth truth = isDefined(source_.spelling(tokens[j]));
        Item item;
        if (truth == Truth::Unknown) item.kind = Item::Unknown;
        item.value = truth == Truth::True ? 1 : 0;
        tokens_.push_back(item);
        i = j + (parenthesized && j + 1 < end && source_.is(tokens[j + 1], ")") ? 1 : 0);
        continue;
      }
      if (spelling == "true" || spelling == "false") {
        tokens_.push_back({Item::Number, spelling == "true" ? 1 : 0, {}});
        continue;
      }
      // A function-like use (a macro or __has_include) swallows its argument list.
      bool call = i + 1 < end && source_.is(tokens[i + 1], "(");
      const MacroDefinition* macro = view_.macroAt(spelling, at_);
      if (macro && macro->defined == Truth::True && !macro->functionLike && !call && depth < 32) {
        expand(macro->bodyBegin, macro->bodyEnd, depth + 1);
        continue;
      }
      if (!macro && !call && depth < 32) {
        if (auto value = view_.predefined(spelling)) {
          LexedSource body(*value);
          ConditionEvaluator nested(body, view_, 0);
          nested.expandForeign(body);
          for (Item& item : nested.tokens_) tokens_.push_back(std::move(item));
          continue;
        }
        if (isCompilerMacroName(spelling)) {
          tokens_.push_back({Item::Number, 0, {}});
          continue;
        }
      }
      if (call) {
        int level = 0;
        std::uint32_t j = i + 1;
        for (; j < end; ++j) {
          if (source_.is(tokens[j], "(")) ++level;
          if (source_.is(tokens[j], ")") && --level == 0) break;
        }
        i = j;
      }
      tokens_.push_back({Item::Unknown, 0, {}});
    }
  }

  // Predefined replacement texts are numbers or names; they hold no `defined`.
  void expandForeign(const LexedSource& body) {
    std::string scratch;
    for (const Token& token : body.tokens()) {
      std::string_view spelling = body.spellingView(token, scratch);
      if (token.kind == TokenKind::Number) {
        tokens_.push_back(number(spelling));
      } else if (token.kind == TokenKind::Identifier) {
        tokens_.push_back({Item::Unknown, 0, {}});
      } else {
        tokens_.push_back({Item::Operator, 0, std::string(spelling)});
      }
    }
  }

  Truth isDefined(const std::string& name) {
    if (const MacroDefinition* macro = view_.macroAt(name, at_)) return macro->defined;
    if (view_.predefined(name)) return Truth::True;
    if (isCompilerMacroName(name)) return Truth::False;
    return Truth::Unknown;
  }

  static Item number(std::string_view spelling) {
    Item item;
    std::optional<std::uint64_t> value = integerLiteralValue(spelling);
    if (!value) item.kind = Item::Unknown;
    item.value = static_cast<std::int64_t>(value.value_or(0));
    return item;
  }

  bool peekOp(std::string_view op) const {
    return position_ < tokens_.size() && tokens_[position_].kind == Item::Operator && tokens_[position_].op == op;
  }

  Value conditional() {
    Value condition = logicalOr();
    if (!peekOp("?")) return condition;
    ++position_;
    Value whenTrue = conditional();
    if (!peekOp(":")) return Value::unknown();
    ++position_;
    Value whenFalse = conditional();
    if (!condition.known) return whenTrue.known && whenFalse.known && whenTrue.value == whenFalse.value ? whenTrue : Value::unknown();
    return condition.value ? whenTrue : whenFalse;
  }

  Value logicalOr() {
    Value left = logicalAnd();
    while (peekOp("||")) {
      ++position_;
      Value right = logicalAnd();
      if ((left.known && left.value) || (right.known && right.value)) left = {true, 1};
      else if (left.known && right.known) left = {true, 0};
      else left = Value::unknown();
    }
    return left;
  }

  Value logicalAnd() {
    Value left = binary(0);
    while (peekOp("&&")) {
      ++position_;
      Value right = binary(0);
      if ((left.known && !left.value) || (right.known && !right.value)) left = {true, 0};
      else if (left.known && right.known) left = {true, 1};
      else left = Value::unknown();
    }
    return left;
  }

  // Binary operators below && by precedence level.
  Value binary(int level) {
    static const std::vector<std::vector<std::string_view>> kLevels = {
        {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
    if (level == static_cast<int>(kLevels.size())) return unary();
    Value left = binary(level + 1);
    while (position_ < tokens_.size() && tokens_[position_].kind == Item::Operator) {
      const std::string& op = tokens_[position_].op;
      const auto& ops = kLevels[static_cast<std::size_t>(level)];
      if (std::find(ops.begin(), ops.end(), op) == ops.end()) break;
      ++position_;
      Value right = binary(level + 1);
      if (!left.known || !right.known) {
        left = Value::unknown();
        continue;
      }
      std::int64_t a = left.value, b = right.value, r = 0;
      if (op == "|") r = a | b;
      else if (op == "^") r = a ^ b;
      else if (op == "&") r = a & b;
      else if (op == "==") r = a == b;
      else if (op == "!=") r = a != b;
      else if (op == "<") r = a < b;
      else if (op == ">") r = a > b;
      else if (op == "<=") r = a <= b;
      else if (op == ">=") r = a >= b;
      else if (op == "<<") r = (b >= 0 && b < 63) ? a << b : 0;
      else if (op == ">>") r = (b >= 0 && b < 63) ? a >> b : 0;
      else if (op == "+") r = a + b;
      else if (op == "-") r = a - b;
      else if (op == "*") r = a * b;
      else if (op == "/" || op == "%") {
        if (b == 0) return Value::unknown();
        r = op == "/" ? a / b : a % b;
      }
      left = {true, r};
    }
    return left;
  }

  Value unary() {
    if (position_ >= tokens_.size()) return Value::unknown();
    const Item& item = tokens_[position_];
    if (item.kind == Item::Operator) {
      if (item.op == "(") {
        ++position_;
        Value inner = conditional();
        if (!peekOp(")")) return Value::unknown();
        ++position_;
        return inner;
      }
      std::string op = item.op;
      if (op == "!" || op == "-" || op == "+" || op == "~") {
        ++position_;
        Value operand = unary();
        if (!operand.known) return operand;
        if (op == "!") return {true, operand.value == 0};
        if (op == "-") return {true, -operand.value};
        if (op == "~") return {true, ~operand.value};
        return operand;
      }
      ++position_;
      return Value::unknown();
    }
    ++position_;
    if (item.kind == Item::Unknown) return Value::unknown();
    return {true, item.value};
  }

  const LexedSource& source_;
  PassView& view_;
  std::uint32_t at_;
  std::vector<Item> tokens_;
  std::size_t position_ = 0;
};

namespace {

struct Frame {
  Truth parent = Truth::True;  // Activity around the conditional.
  Truth branch = Truth::True;  // Activity of the current branch alone.
  Truth taken = Truth::False;  // Whether an earlier branch was taken.
};

// Numbers compared with __CUDA_ARCH__ in a condition (`__CUDA_ARCH__ >= 900`).
void collectGuardArchitectures(const LexedSource& source, std::uint32_t begin, std::uint32_t end, std::vector<unsigned>& out) {
  const auto& tokens = source.tokens();
  for (std::uint32_t i = begin; i < end; ++i) {
    if (tokens[i].kind != TokenKind::Identifier || !source.is(tokens[i], "__CUDA_ARCH__")) continue;
    for (std::uint32_t j = i + 1; j < end && j <= i + 2; ++j) {
      if (tokens[j].kind != TokenKind::Number) continue;
      unsigned value = 0;
      std::string spelling = source.spelling(tokens[j]);
      std::from_chars(spelling.data(), spelling.data() + spelling.size(), value);
      if (value >= 300 && value < 10000 && std::find(out.begin(), out.end(), value) == out.end()) out.push_back(value);
    }
  }
}

// `#if !defined(X)` (or `!defined X`) directly followed by `#define X`: an include guard, true
// the first time the header is read.
bool isIncludeGuard(const LexedSource& source, const std::vector<Directive>& directives, std::uint32_t d,
                    std::uint32_t begin, std::uint32_t end) {
  const auto& tokens = source.tokens();
  if (end - begin != 3 && end - begin != 5) return false;
  if (!source.is(tokens[begin], "!") || !source.is(tokens[begin + 1], "defined")) return false;
  std::uint32_t name = end - begin == 3 ? begin + 2 : begin + 3;
  if (end - begin == 5 && (!source.is(tokens[begin + 2], "(") || !source.is(tokens[begin + 4], ")"))) return false;
  if (d + 1 >= directives.size()) return false;
  const Directive& following = directives[d + 1];
  return following.firstToken + 2 < following.endToken && source.is(tokens[following.firstToken + 1], "define") &&
         source.spelling(tokens[following.firstToken + 2]) == source.spelling(tokens[name]);
}

}  // namespace

std::vector<unsigned> guardArchitectures(const LexedSource& source) {
  std::vector<unsigned> out;
  const auto& tokens = source.tokens();
  for (const Directive& directive : source.directives()) {
    if (directive.firstToken + 1 >= directive.endToken) continue;
    const Token& keyword = tokens[directive.firstToken + 1];
    if (source.is(keyword, "if") || source.is(keyword, "elif"))
      collectGuardArchitectures(source, directive.firstToken + 2, directive.endToken, out);
  }
  std::sort(out.begin(), out.end());
  return out;
}

PassView evaluatePass(const LexedSource& source, const std::vector<std::pair<std::string, std::string>>& predefined) {
  PassView view;
  for (const auto& [name, value] : predefined) view.predefined_[name] = value;
  const auto& tokens = source.tokens();
  const auto& directives = source.directives();
  view.activity_.assign(tokens.size(), Truth::True);

  std::vector<Frame> stack;
  Truth current = Truth::True;
  std::uint32_t next = 0;  // First token not yet assigned an activity.
  std::string scratch;

  for (std::uint32_t d = 0; d < directives.size(); ++d) {
    const Directive& directive = directives[d];
    std::fill(view.activity_.begin() + next, view.activity_.begin() + directive.firstToken, current);
    next = directive.endToken;
    std::uint32_t nameIndex = directive.firstToken + 1;
    if (nameIndex >= directive.endToken) {
      std::fill(view.activity_.begin() + directive.firstToken, view.activity_.begin() + directive.endToken, current);
      continue;
    }
    std::string_view keyword = source.spellingView(tokens[nameIndex], scratch);
    std::string keywordText(keyword);
    std::uint32_t argsBegin = nameIndex + 1;
    std::uint32_t argsEnd = directive.endToken;
    Truth directiveActivity = current;

    auto evaluateCondition = [&](bool negate, bool isDefinedTest) -> Truth {
      if (isDefinedTest) {
        if (argsBegin >= argsEnd || tokens[argsBegin].kind != TokenKind::Identifier) return Truth::Unknown;
        std::string name = source.spelling(tokens[argsBegin]);
        Truth truth;
        if (const MacroDefinition* macro = view.macroAt(name, directive.firstToken)) truth = macro->defined;
        else if (view.predefined(name)) truth = Truth::True;
        else if (isCompilerMacroName(name)) truth = Truth::False;
        else if (negate && d + 1 < directives.size()) {
          // An include guard: `#ifndef X` directly followed by `#define X`.
          const Directive& following = directives[d + 1];
          bool guard = following.firstToken + 2 < following.endToken &&
                       source.is(tokens[following.firstToken + 1], "define") &&
                       source.spelling(tokens[following.firstToken + 2]) == name;
          truth = guard ? Truth::False : Truth::Unknown;
        } else {
          truth = Truth::Unknown;
        }
        return negate ? notTruth(truth) : truth;
      }
      if (isIncludeGuard(source, directives, d, argsBegin, argsEnd)) return Truth::True;
      ConditionEvaluator evaluator(source, view, directive.firstToken);
      Value value = evaluator.evaluate(argsBegin, argsEnd);
      if (!value.known) return Truth::Unknown;
      return value.value != 0 ? Truth::True : Truth::False;
    };

    if (keywordText == "if" || keywordText == "ifdef" || keywordText == "ifndef") {
      Frame frame;
      frame.parent = current;
      if (current == Truth::False) {
        frame.branch = Truth::False;
        frame.taken = Truth::True;  // Nothing below a dead branch is ever taken.
      } else {
        frame.branch = evaluateCondition(keywordText == "ifndef", keywordText != "if");
        frame.taken = frame.branch;
      }
      stack.push_back(frame);
      current = frame.parent && frame.branch;
    } else if (keywordText == "elif" || keywordText == "elifdef" || keywordText == "elifndef" || keywordText == "else") {
      if (stack.empty()) {
        std::fill(view.activity_.begin() + directive.firstToken, view.activity_.begin() + directive.endToken, current);
        continue;
      }
      Frame& frame = stack.back();
      directiveActivity = frame.parent;
      Truth condition = Truth::True;
      if (keywordText != "else" && frame.parent != Truth::False && frame.taken != Truth::True)
        condition = evaluateCondition(keywordText == "elifndef", keywordText != "elif");
      frame.branch = notTruth(frame.taken) && condition;
      frame.taken = orTruth(frame.taken, frame.branch);
      current = frame.parent && frame.branch;
    } else if (keywordText == "endif") {
      if (!stack.empty()) {
        directiveActivity = stack.back().parent;
        current = stack.back().parent;
        stack.pop_back();
      }
    } else if (keywordText == "define" && current != Truth::False && argsBegin < argsEnd &&
               tokens[argsBegin].kind == TokenKind::Identifier) {
      MacroDefinition macro;
      macro.name = source.spelling(tokens[argsBegin]);
      macro.directive = d;
      macro.nameToken = argsBegin;
      macro.defined = current;
      std::uint32_t body = argsBegin + 1;
      // Function-like only when '(' touches the name.
      if (body < argsEnd && source.is(tokens[body], "(") && tokens[body].range.begin == tokens[argsBegin].range.end) {
        macro.functionLike = true;
        ++body;
        while (body < argsEnd && !source.is(tokens[body], ")")) {
          if (tokens[body].kind == TokenKind::Identifier || source.is(tokens[body], "..."))
            macro.parameters.push_back(source.spelling(tokens[body]));
          ++body;
        }
        if (body < argsEnd) ++body;
      }
      macro.bodyBegin = body;
      macro.bodyEnd = argsEnd;
      view.events_[macro.name].emplace_back(directive.firstToken, static_cast<std::int32_t>(view.definitions_.size()));
      view.definitions_.push_back(std::move(macro));
    } else if (keywordText == "undef" && current != Truth::False && argsBegin < argsEnd) {
      view.events_[source.spelling(tokens[argsBegin])].emplace_back(directive.firstToken, -1);
    }
    std::fill(view.activity_.begin() + directive.firstToken, view.activity_.begin() + directive.endToken, directiveActivity);
  }
  std::fill(view.activity_.begin() + next, view.activity_.end(), current);
  return view;
}

}  // namespace ptx::cuda

// ArgumentEvaluator: constant values of host-code names and arrays (see the header).
#include "host_api/ArgumentEvaluator.h"

#include <algorithm>

namespace ptx::host {
namespace {

// Words that start or continue an expression or statement, never a declaration's type.
bool isExpressionKeyword(std::string_view word) {
  static constexpr std::string_view kWords[] = {
      "return",  "case",   "throw", "goto", "co_return", "co_yield", "co_await", "delete", "new",      "sizeof",
      "alignof", "typeid", "else",  "do",   "if",        "while",    "for",      "switch", "operator", "and",
      "or",      "not",    "this",  "true", "false",     "nullptr",  "default",  "break",  "continue"};
  return std::find(std::begin(kWords), std::end(kWords), word) != std::end(kWords);
}

// Specifiers after which a declared name is no constant this evaluator may read.
bool disqualifiesDeclaration(std::string_view word) {
  static constexpr std::string_view kWords[] = {"typedef", "using",   "extern",     "volatile",   "template",
                                                "friend",  "mutable", "__device__", "__shared__", "__managed__"};
  return std::find(std::begin(kWords), std::end(kWords), word) != std::end(kWords);
}

bool isPointerOperator(std::string_view s) { return s == "*" || s == "&" || s == "&&"; }

}  // namespace

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

ByteRange HostTokens::range(std::uint32_t position) const { return source_.tokens()[raw_[position]].range; }

ByteRange HostTokens::range(std::uint32_t begin, std::uint32_t end) const {
  if (end <= begin) {
    std::uint32_t at = begin < size() ? range(begin).begin : static_cast<std::uint32_t>(source_.text().size());
    return {at, at};
  }
  return {range(begin).begin, range(end - 1).end};
}

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

// The names of an expression as C++ scopes them at one position of the host code.
class ArgumentEvaluator::ScopeNames : public NameResolver {
 public:
  ScopeNames(const ArgumentEvaluator& evaluator, std::uint32_t useSite) : evaluator_(evaluator), useSite_(useSite) {}
  std::optional<std::int64_t> valueOf(std::string_view name, int depth) const override {
    return evaluator_.valueOfName(name, useSite_, depth);
  }
  std::optional<std::int64_t> elementOf(std::string_view name, std::int64_t index, int depth) const override {
    std::optional<ConstantArray> array = evaluator_.arrayFor(name, useSite_, depth);
    if (!array || index < 0 || static_cast<std::size_t>(index) >= array->elements.size()) return std::nullopt;
    return array->elements[static_cast<std::size_t>(index)].value;
  }

 private:
  const ArgumentEvaluator& evaluator_;
  std::uint32_t useSite_;
};

ArgumentEvaluator::ArgumentEvaluator(const HostTokens& tokens, std::vector<std::uint32_t> arrayArgumentUses)
    : tokens_(tokens), arrayArgumentUses_(std::move(arrayArgumentUses)) {
  std::sort(arrayArgumentUses_.begin(), arrayArgumentUses_.end());
}

std::optional<std::int64_t> ArgumentEvaluator::valueOf(std::uint32_t begin, std::uint32_t end) const {
  return valueOfPositions(begin, end, 0);
}

std::optional<std::int64_t> ArgumentEvaluator::valueOfPositions(std::uint32_t begin, std::uint32_t end,
                                                                int depth) const {
  if (end <= begin || end > tokens_.size()) return std::nullopt;
  std::vector<ExpressionToken> expression;
  expression.reserve(end - begin);
  for (std::uint32_t p = begin; p < end; ++p)
    expression.push_back({std::string(tokens_.spelling(p)), tokens_.source().tokens()[tokens_.rawIndex(p)].kind});
  return evaluateConstantExpression(std::move(expression), ScopeNames(*this, begin), depth);
}

std::optional<std::int64_t> ArgumentEvaluator::valueOfName(std::string_view name, std::uint32_t useSite,
                                                           int depth) const {
  if (depth > kMaxDepth) return std::nullopt;
  if (auto enumerator = cudaEnumerator(name)) return enumerator;
  // The preprocessor runs first: a macro of the file wins over any declaration.
  if (const cuda::MacroDefinition* macro = tokens_.view().macroAt(name, tokens_.rawIndex(useSite))) {
    if (macro->functionLike || macro->defined != cuda::Truth::True || macro->bodyEnd <= macro->bodyBegin)
      return std::nullopt;
    std::vector<ExpressionToken> body;
    for (std::uint32_t raw = macro->bodyBegin; raw < macro->bodyEnd; ++raw) {
      const cuda::Token& token = tokens_.source().tokens()[raw];
      body.push_back({tokens_.source().spelling(token), token.kind});
    }
    // The body's names are looked up where the macro is used.
    return evaluateConstantExpression(std::move(body), ScopeNames(*this, useSite), depth + 1);
  }
  std::optional<Declaration> declaration = declarationOf(name, useSite);
  if (!declaration || declaration->kind != Declaration::Kind::Scalar || !declaration->isConst) return std::nullopt;
  // The initializer's names are those in scope where it is written.
  std::optional<std::int64_t> value = valueOfPositions(declaration->initBegin, declaration->initEnd, depth + 1);
  if (value && declaration->type) return convertTo(*value, *declaration->type);
  return value;
}

std::optional<ConstantArray> ArgumentEvaluator::arrayFor(std::string_view name, std::uint32_t useSite,
                                                         int depth) const {
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
    std::optional<std::int64_t> count = valueOfPositions(declaration->countBegin, declaration->countEnd, depth + 1);
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
    if (tokens_.is(p, "{")) {
      if (mayHideMembers(p, name, useSite)) return std::nullopt;
      continue;
    }
    if (!tokens_.isIdentifier(p) || tokens_.spelling(p) != name || p == 0) continue;
    if (isStructuredBinding(p)) return Declaration{};
    if (!startsDeclarator(p)) continue;
    if (std::optional<Declaration> declaration = parseDeclaration(p, useSite)) return declaration;
  }
  return std::nullopt;
}

bool ArgumentEvaluator::startsDeclarator(std::uint32_t position) const {
  std::string_view before = tokens_.spelling(position - 1);
  if (tokens_.isIdentifier(position - 1)) return !isExpressionKeyword(before);
  return isPointerOperator(before) || before == ">" || before == ">>" || before == ",";
}

bool ArgumentEvaluator::isStructuredBinding(std::uint32_t position) const {
  // `auto [W, H] = shape;`, `const auto& [W, H] = ...`.
  std::uint32_t q = position;
  while (q > 0 && (tokens_.isIdentifier(q) || tokens_.is(q, ","))) --q;
  if (!tokens_.is(q, "[") || q == 0) return false;
  return tokens_.is(q - 1, "auto") || tokens_.is(q - 1, "&") || tokens_.is(q - 1, "&&");
}

bool ArgumentEvaluator::mayHideMembers(std::uint32_t open, std::string_view name, std::uint32_t useSite) const {
  // Leaving the scope that `open` starts. Class members are in scope in a member function
  // defined outside its class (`void Gemm::encode() {`), in the members of a class with base
  // classes, and in a class body before their declaration: the walk cannot see those, so a
  // name there may not be the outer one it would find next.
  std::uint32_t b = open;
  while (b > 0 && (tokens_.is(b - 1, "const") || tokens_.is(b - 1, "noexcept") || tokens_.is(b - 1, "override") ||
                   tokens_.is(b - 1, "final") || tokens_.is(b - 1, "&") || tokens_.is(b - 1, "&&")))
    --b;
  if (b > 0 && tokens_.is(b - 1, ")")) {
    std::uint32_t parameters = tokens_.partner(b - 1);
    return parameters == kNone ||
           (parameters >= 2 && tokens_.isIdentifier(parameters - 1) && tokens_.is(parameters - 2, "::"));
  }
  bool isClass = false;
  bool hasBases = false;
  for (std::uint32_t q = open; q > 0 && open - q < 64;) {
    --q;
    std::string_view s = tokens_.spelling(q);
    if (s == ";" || s == "{" || s == "}" || s == ")" || s == "=") break;
    if (s == ":") hasBases = true;
    if ((s == "struct" || s == "class" || s == "union") && !(q > 0 && tokens_.is(q - 1, "enum"))) {
      isClass = true;
      break;
    }
  }
  if (!isClass) return false;
  if (hasBases) return true;
  std::uint32_t close = tokens_.partner(open);
  if (close == kNone) return true;
  for (std::uint32_t q = useSite + 1; q < close; ++q) {
    if (tokens_.isIdentifier(q) && tokens_.spelling(q) == name && startsDeclarator(q)) return true;
  }
  return false;
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

std::optional<ArgumentEvaluator::Declaration> ArgumentEvaluator::parseDeclaration(std::uint32_t namePosition,
                                                                                  std::uint32_t useSite) const {
  // The statement's start: after the `;`, `{`, `}` or `:` before it. An unmatched `(` or `[`,
  // or `template <`, means a parameter, a for-init or a condition, which starts after the
  // nearest comma: a declaration, but of no constant we read.
  std::uint32_t start = namePosition;
  std::uint32_t nearestComma = kNone;
  std::uint32_t listOpen = kNone;
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
    if (s == "(" || s == "[" || (s == "<" && q > 0 && tokens_.is(q - 1, "template"))) {
      inParentheses = true;
      listOpen = q;
      break;
    }
    if (s == "," && nearestComma == kNone) nearestComma = q;
    start = q;
  }
  if (inParentheses && nearestComma != kNone) start = nearestComma + 1;

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
  if (inParentheses) {
    // A parameter (of a function or template) or a for-init variable: it hides outer names
    // where it is in scope.
    if (lastIdentifier != namePosition || !inScopeOfList(listOpen, useSite)) return std::nullopt;
    Declaration parameter;
    parameter.name = namePosition;
    return parameter;
  }
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
    if (!tokens_.is(a, ",") && !tokens_.is(a, ";")) return std::nullopt;
    if (name == namePosition) {
      declaration.name = name;
      declaration.end = a;
      bool readable = !disqualified && !pointer && !other;
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

bool ArgumentEvaluator::inScopeOfList(std::uint32_t open, std::uint32_t useSite) const {
  // The list's end: `)`/`]` by bracket, a template's `>` by counting angles.
  std::uint32_t close = kNone;
  if (tokens_.is(open, "<")) {
    int angle = 0;
    for (std::uint32_t q = open; q < tokens_.size(); ++q) {
      std::string_view t = tokens_.spelling(q);
      if (t == ";" || t == "{" || t == "}") return true;
      if (t == "<") ++angle;
      if (t == ">") --angle;
      if (t == ">>") angle -= 2;
      if (angle <= 0) {
        close = q;
        break;
      }
    }
  } else {
    close = tokens_.partner(open);
  }
  if (close == kNone || useSite <= close) return true;
  // Its scope runs through the body or statement that follows (a function's or lambda's body,
  // a template's declaration, a for statement).
  for (std::uint32_t q = close + 1; q < tokens_.size(); ++q) {
    if (tokens_.is(q, "(") || tokens_.is(q, "[")) {
      if (tokens_.partner(q) == kNone) return true;
      q = tokens_.partner(q);
      continue;
    }
    if (tokens_.is(q, "{")) return tokens_.partner(q) == kNone || useSite < tokens_.partner(q);
    if (tokens_.is(q, ";") || tokens_.is(q, "}")) return useSite < q;
  }
  return true;
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
    static constexpr std::string_view kBodyAfter[] = {")",     "]",       "const", "noexcept", "override",
                                                      "final", "mutable", "else",  "do",       "try"};
    if (std::find(std::begin(kBodyAfter), std::end(kBodyAfter), before) != std::end(kBodyAfter)) return true;
  }
  return false;
}

bool ArgumentEvaluator::changedAfter(const Declaration& declaration) const {
  // A non-const array keeps its initializer only where every later mention of it, to the end
  // of its block, is one of the checked calls' array arguments. Outside functions anything in
  // the program may write it.
  if (auto known = changed_.find(declaration.name); known != changed_.end()) return known->second;
  bool changed = changedAfterScan(declaration);
  changed_.emplace(declaration.name, changed);
  return changed;
}

bool ArgumentEvaluator::changedAfterScan(const Declaration& declaration) const {
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

// CudaSyntax implementation: the parser's view of a CUDA text (a light lexer finds the macro
// spellings to show differently), a per-thread TSParser, and incremental reparsing that falls
// back to a fresh parse when the view changed outside the edits.
#include "cuda/CudaSyntax.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <unordered_map>

#include "tree-sitter-cuda.h"
#include "syntax/SyntaxTree.h"

namespace ptx::cuda {

// The view: the changes (public) and the bytes shown instead, one patch per changed stretch,
// sorted and disjoint. A patch's replacement has the patch's length and keeps its newlines.
struct CudaSyntaxTree::View {
  struct Patch {
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
    std::uint32_t bytes = 0;  // Offset of the replacement in `bytes`.
  };
  std::vector<ViewChange> changes;
  std::vector<Patch> patches;
  std::string bytes;

  std::string_view replacement(const Patch& patch) const {
    return std::string_view(bytes).substr(patch.bytes, patch.end - patch.begin);
  }
};

namespace {

using View = CudaSyntaxTree::View;

struct ParserDeleter {
  void operator()(TSParser* parser) const { ts_parser_delete(parser); }
};

TSParser* threadParser() {
  thread_local std::unique_ptr<TSParser, ParserDeleter> parser = [] {
    std::unique_ptr<TSParser, ParserDeleter> created(ts_parser_new());
    ts_parser_set_language(created.get(), tree_sitter_cuda());
    return created;
  }();
  return parser.get();
}

// ── A light C++ lexer ─────────────────────────────────────────────────────────────────────
// Enough to find identifiers outside comments, literals and directive lines, and to match
// parentheses; it never fails (an unterminated literal ends at its line's end).

enum class LexKind : std::uint8_t { Identifier, Number, String, Character, Punct, End };

struct Lexeme {
  LexKind kind = LexKind::End;
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  std::uint32_t directive = 0;  // 0 outside directives; else the directive's number (from 1).
  bool startsLine = false;      // First token of its line (outside directives).
};

bool isIdentifierStart(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}
bool isIdentifierByte(unsigned char c) { return isIdentifierStart(c) || (c >= '0' && c <= '9'); }

class Lexer {
 public:
  Lexer(std::string_view text, std::uint32_t start) : text_(text), pos_(start) {}

  Lexeme next() {
    skipBlanks();
    Lexeme lexeme;
    lexeme.begin = static_cast<std::uint32_t>(pos_);
    lexeme.startsLine = lineStart_ && directive_ == 0;
    if (pos_ >= text_.size()) {
      lexeme.kind = LexKind::End;
      lexeme.end = lexeme.begin;
      return lexeme;
    }
    auto c = static_cast<unsigned char>(text_[pos_]);
    if (c == '#' && lineStart_ && directive_ == 0) {
      directive_ = ++directives_;
      ++pos_;
      lexeme.kind = LexKind::Punct;
    } else if (isIdentifierStart(c)) {
      std::size_t end = pos_ + 1;
      while (end < text_.size() && isIdentifierByte(static_cast<unsigned char>(text_[end]))) ++end;
      std::string_view word = text_.substr(pos_, end - pos_);
      char after = end < text_.size() ? text_[end] : '\0';
      if (after == '"' && (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR")) {
        pos_ = end;
        lexRawString();
        lexeme.kind = LexKind::String;
      } else if ((after == '"' || after == '\'') && (word == "u8" || word == "u" || word == "U" || word == "L")) {
        pos_ = end + 1;
        lexQuoted(after);
        lexeme.kind = after == '"' ? LexKind::String : LexKind::Character;
      } else {
        pos_ = end;
        lexeme.kind = LexKind::Identifier;
      }
    } else if ((c >= '0' && c <= '9') || (c == '.' && pos_ + 1 < text_.size() && text_[pos_ + 1] >= '0' &&
                                          text_[pos_ + 1] <= '9')) {
      lexNumber();
      lexeme.kind = LexKind::Number;
    } else if (c == '"' || c == '\'') {
      ++pos_;
      lexQuoted(static_cast<char>(c));
      lexeme.kind = c == '"' ? LexKind::String : LexKind::Character;
    } else {
      ++pos_;
      lexeme.kind = LexKind::Punct;
    }
    lexeme.end = static_cast<std::uint32_t>(pos_);
    lexeme.directive = directive_;
    lineStart_ = false;
    return lexeme;
  }

  std::size_t position() const { return pos_; }

 private:
  // Blanks, comments, line splices and newlines (which end a directive).
  void skipBlanks() {
    const std::size_t size = text_.size();
    while (pos_ < size) {
      char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++pos_;
      } else if (c == '\n') {
        ++pos_;
        directive_ = 0;
        lineStart_ = true;
      } else if (c == '\\' && pos_ + 1 < size && (text_[pos_ + 1] == '\n' || text_[pos_ + 1] == '\r')) {
        pos_ += 2;  // A splice: the logical line (and a directive) goes on.
        if (text_[pos_ - 1] == '\r' && pos_ < size && text_[pos_] == '\n') ++pos_;
      } else if (c == '/' && pos_ + 1 < size && text_[pos_ + 1] == '/') {
        // To the end of the line; a splice continues the comment.
        std::size_t i = pos_ + 2;
        while (i < size && !(text_[i] == '\n' && text_[i - 1] != '\\')) ++i;
        pos_ = i;
      } else if (c == '/' && pos_ + 1 < size && text_[pos_ + 1] == '*') {
        std::size_t close = text_.find("*/", pos_ + 2);
        pos_ = close == std::string_view::npos ? size : close + 2;
      } else {
        return;
      }
    }
  }

  // After the opening quote: to the closing one, an unescaped newline, or the end.
  void lexQuoted(char quote) {
    const std::size_t size = text_.size();
    while (pos_ < size) {
      char c = text_[pos_];
      if (c == quote) {
        ++pos_;
        return;
      }
      if (c == '\n') return;
      pos_ += c == '\\' && pos_ + 1 < size ? 2 : 1;
    }
  }

  // At the `"` of R"delim(...)delim"; a malformed delimiter lexes as an ordinary string.
  void lexRawString() {
    std::size_t open = text_.find('(', pos_ + 1);
    if (open == std::string_view::npos || open - pos_ - 1 > 16) {
      ++pos_;
      lexQuoted('"');
      return;
    }
    std::string_view delimiter = text_.substr(pos_ + 1, open - pos_ - 1);
    if (delimiter.find_first_of(" \t\n\\)\"") != std::string_view::npos) {
      ++pos_;
      lexQuoted('"');
      return;
    }
    // The closing `)delimiter"`.
    for (std::size_t close = text_.find(')', open + 1); close != std::string_view::npos;
         close = text_.find(')', close + 1)) {
      std::size_t quote = close + 1 + delimiter.size();
      if (quote < text_.size() && text_[quote] == '"' && text_.substr(close + 1, delimiter.size()) == delimiter) {
        pos_ = quote + 1;
        return;
      }
    }
    pos_ = text_.size();
  }

  // A preprocessing number: digits, letters, '.', digit separators and exponent signs.
  void lexNumber() {
    const std::size_t size = text_.size();
    ++pos_;
    while (pos_ < size) {
      auto c = static_cast<unsigned char>(text_[pos_]);
      if (isIdentifierByte(c) || c == '.' || (c == '\'' && pos_ + 1 < size && isIdentifierByte(text_[pos_ + 1]))) {
        ++pos_;
      } else if ((c == '+' || c == '-') && std::strchr("eEpP", text_[pos_ - 1]) != nullptr) {
        ++pos_;
      } else {
        break;
      }
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::uint32_t directive_ = 0;
  std::uint32_t directives_ = 0;
  bool lineStart_ = true;
};

std::string_view spellingOf(std::string_view text, const Lexeme& l) { return text.substr(l.begin, l.end - l.begin); }

// ── The view under construction ───────────────────────────────────────────────────────

class ViewBuilder {
 public:
  explicit ViewBuilder(std::string_view text) : text_(text) {}

  // Blanks [begin, end) but its line breaks.
  void blank(std::uint32_t begin, std::uint32_t end) {
    std::string bytes(text_.substr(begin, end - begin));
    for (char& c : bytes) {
      if (c != '\n' && c != '\r') c = ' ';
    }
    patch(begin, bytes);
  }
  void patch(std::uint32_t begin, std::string_view bytes) {
    view_.patches.push_back({begin, begin + static_cast<std::uint32_t>(bytes.size()),
                             static_cast<std::uint32_t>(view_.bytes.size())});
    view_.bytes.append(bytes);
  }
  void change(ViewChange change) { view_.changes.push_back(change); }

  View finish() {
    auto byBegin = [](const auto& a, const auto& b) { return a.begin < b.begin; };
    std::sort(view_.patches.begin(), view_.patches.end(), byBegin);
    // Disjoint by construction (each patch is its own token); keep the first if not.
    std::vector<View::Patch> disjoint;
    for (const View::Patch& p : view_.patches) {
      if (disjoint.empty() || disjoint.back().end <= p.begin) disjoint.push_back(p);
    }
    view_.patches = std::move(disjoint);
    std::sort(view_.changes.begin(), view_.changes.end(),
              [](const ViewChange& a, const ViewChange& b) { return a.range.begin < b.range.begin; });
    return std::move(view_);
  }

 private:
  std::string_view text_;
  View view_;
};

// ── Which macros the view changes ─────────────────────────────────────────────────────────

// Words a qualifier macro's body may hold besides those with qualifier bits.
bool isNeutralSpecifierWord(std::string_view word) {
  return word == "extern" || word == "__cudart_builtin__" || word == "__device_builtin__";
}

struct BuiltinMacro {
  std::string_view name;
  std::uint16_t qualifiers;
};

// Qualifier macros of the CUDA 13 toolkit's headers that other headers use without defining
// them (CCCL's config headers, cuda_fp16.h for cuda_fp16.hpp ...), with what they expand to
// there for the device compiler. A text that defines the name itself is read for its own
// definitions instead.
constexpr BuiltinMacro kBuiltinQualifierMacros[] = {
    {"_CCCL_DEVICE", kQualDevice},
    {"_CCCL_HOST", kQualHost},
    {"_CCCL_HOST_DEVICE", kQualHost | kQualDevice},
    {"_CCCL_FORCEINLINE", kQualForceInline},
    {"_CCCL_HIDE_FROM_ABI", kQualInline},
    {"_LIBCUDACXX_HIDE_FROM_ABI", kQualInline | kQualHost | kQualDevice},
    {"_CCCL_NODISCARD", 0},
    {"_CCCL_VISIBILITY_HIDDEN", 0},
    {"_CCCL_EXCLUDE_FROM_EXPLICIT_INSTANTIATION", 0},
    {"_CCCL_CONSTEXPR_CXX14", kQualConstexpr},
    {"_CCCL_CONSTEXPR_CXX17", kQualConstexpr},
    {"_CCCL_CONSTEXPR_CXX20", kQualConstexpr},
    {"_CCCL_CONSTEXPR_CXX23", kQualConstexpr},
    {"__CUDA_HOSTDEVICE__", kQualHost | kQualDevice},
    {"__CUDA_FP16_INLINE__", kQualInline},
    {"__CUDA_BF16_INLINE__", kQualInline},
    {"__CUDA_FP16_FORCEINLINE__", kQualForceInline},
    {"__CUDA_BF16_FORCEINLINE__", kQualForceInline},
    {"__CUDA_FP16_DECL__", kQualStatic | kQualDevice | kQualInline},
    {"__CUDA_BF16_DECL__", kQualStatic | kQualDevice | kQualInline},
    {"__CUDA_FP8_DECL__", kQualStatic | kQualDevice | kQualInline},
    {"__CUDA_FP6_DECL__", kQualStatic | kQualDevice | kQualInline},
    {"__CUDA_FP4_DECL__", kQualStatic | kQualDevice | kQualInline},
    {"__CUDA_HOSTDEVICE_FP16_DECL__", kQualStatic | kQualHost | kQualDevice | kQualInline},
    {"__CUDA_HOSTDEVICE_BF16_DECL__", kQualStatic | kQualHost | kQualDevice | kQualInline},
    {"__CUDA_HOSTDEVICE_FP8_DECL__", kQualStatic | kQualHost | kQualDevice | kQualInline},
    {"__CUDA_HOSTDEVICE_FP6_DECL__", kQualStatic | kQualHost | kQualDevice | kQualInline},
    {"__CUDA_HOSTDEVICE_FP4_DECL__", kQualStatic | kQualHost | kQualDevice | kQualInline},
    {"__CUDA_HOSTDEVICE_FP8__", kQualHost | kQualDevice},
    {"__CUDA_HOSTDEVICE_FP6__", kQualHost | kQualDevice},
    {"__CUDA_HOSTDEVICE_FP4__", kQualHost | kQualDevice},
    {"__cudart_builtin__", 0},
    {"__device_builtin__", 0},
    {"_CG_QUALIFIER", kQualForceInline | kQualDevice},
    {"_CG_STATIC_QUALIFIER", kQualStatic | kQualForceInline | kQualDevice},
    {"_CG_CONSTEXPR_QUALIFIER", kQualConstexpr | kQualForceInline | kQualDevice},
    {"_CG_STATIC_CONSTEXPR_QUALIFIER", kQualStatic | kQualConstexpr | kQualForceInline | kQualDevice},
    {"_CG_STATIC_CONST_DECL", kQualStatic | kQualConstexpr},
};

// String macros other headers define: cooperative_groups/details/info.h's pointer constraint.
constexpr std::pair<std::string_view, std::string_view> kBuiltinStringMacros[] = {
    {"_CG_ASM_PTR_CONSTRAINT", "\"l\""},
};

bool isNamespaceMacro(std::string_view word) {
  for (std::string_view prefix : {"_LIBCUDACXX_BEGIN_NAMESPACE", "_LIBCUDACXX_END_NAMESPACE", "_CCCL_BEGIN_NAMESPACE",
                                  "_CCCL_END_NAMESPACE"}) {
    if (word.starts_with(prefix)) return true;
  }
  // cooperative_groups/details/info.h: `namespace cooperative_groups { namespace __v1 {` and back.
  return word == "_CG_BEGIN_NAMESPACE" || word == "_CG_END_NAMESPACE";
}

bool isTargetDispatch(std::string_view word) {
  return word == "NV_IF_TARGET" || word == "NV_IF_ELSE_TARGET" || word == "NV_DISPATCH_TARGET";
}

// What the text's own `#define`s make of a name (all its definitions together).
struct MacroClass {
  enum Kind : std::uint8_t { Qualifier, String, Other } kind = Other;
  std::uint16_t qualifiers = 0;
  std::uint32_t literalBegin = 0;  // String: the shortest definition's literal.
  std::uint32_t literalEnd = 0;
  std::vector<std::string_view> uses;  // Qualifier: the macros its bodies name.
  bool seen = false;

  // Another definition of the same name: the name keeps its class only when all agree.
  void merge(MacroClass&& other) {
    if (!seen) {
      *this = std::move(other);
      seen = true;
    } else if (kind != other.kind) {
      kind = Other;
    } else if (kind == Qualifier) {
      qualifiers |= other.qualifiers;
      uses.insert(uses.end(), other.uses.begin(), other.uses.end());
    } else if (kind == String && other.literalEnd - other.literalBegin < literalEnd - literalBegin) {
      literalBegin = other.literalBegin;
      literalEnd = other.literalEnd;
    }
  }
};

// Classifies one object-like macro's body: one plain string literal; or only specifier words,
// other macros, __attribute__((...)), __declspec(...) and [[...]] (an empty body too); or other.
MacroClass classifyBody(std::string_view text, const std::vector<Lexeme>& body) {
  MacroClass result;
  if (body.size() == 1 && body[0].kind == LexKind::String && text[body[0].begin] == '"') {
    result.kind = MacroClass::String;
    result.literalBegin = body[0].begin;
    result.literalEnd = body[0].end;
    return result;
  }
  auto spelling = [&](const Lexeme& l) { return text.substr(l.begin, l.end - l.begin); };
  result.kind = MacroClass::Qualifier;
  for (std::size_t k = 0; k < body.size(); ++k) {
    const Lexeme& l = body[k];
    std::string_view word = spelling(l);
    bool group = false;
    if (l.kind == LexKind::Identifier && (word == "__attribute__" || word == "__declspec")) {
      if (k + 1 >= body.size() || spelling(body[k + 1]) != "(") return MacroClass{};
      if (word == "__attribute__") {
        for (std::size_t j = k + 1; j < body.size(); ++j) {
          std::string_view inner = spelling(body[j]);
          if (inner == "always_inline" || inner == "__always_inline__") result.qualifiers |= kQualForceInline;
          if (inner == "noinline" || inner == "__noinline__") result.qualifiers |= kQualNoinline;
        }
      }
      ++k;
      group = true;
    } else if (word == "[" && k + 1 < body.size() && spelling(body[k + 1]) == "[") {
      group = true;
    }
    if (group) {
      // Skip to the group's closing bracket.
      int depth = 0;
      for (; k < body.size(); ++k) {
        std::string_view p = spelling(body[k]);
        if (p == "(" || p == "[") ++depth;
        if ((p == ")" || p == "]") && --depth == 0) break;
      }
      if (depth != 0) return MacroClass{};
      continue;
    }
    if (l.kind != LexKind::Identifier) return MacroClass{};
    if (std::uint16_t bits = qualifierBitsOfWord(word); bits != 0) {
      result.qualifiers |= bits;
    } else if (!isNeutralSpecifierWord(word)) {
      result.uses.push_back(word);
    }
  }
  return result;
}

struct MacroTable {
  // Name → (kind, qualifier bits, literal); only names the view changes.
  struct Entry {
    ViewKind kind = ViewKind::QualifierMacro;
    std::uint16_t qualifiers = 0;
    std::string_view literal;  // StringMacro.
  };
  std::unordered_map<std::string_view, Entry> entries;
  std::array<bool, 256> firstByte{};  // A cheap filter before the hash lookup.
  std::size_t shortest = SIZE_MAX;

  void add(std::string_view name, Entry entry) {
    entries[name] = entry;
    firstByte[static_cast<unsigned char>(name[0])] = true;
    shortest = std::min(shortest, name.size());
  }
  const Entry* find(std::string_view word) const {
    if (word.size() < shortest || !firstByte[static_cast<unsigned char>(word[0])]) return nullptr;
    auto it = entries.find(word);
    return it == entries.end() ? nullptr : &it->second;
  }
};

// Pass 1: the text's object-like `#define`s, classified and resolved against each other and
// the built-in table.
// Directives that never hold structure: a whole conditional group holding only directives
// (`#if defined(_MSC_VER)` / `#pragma warning(push)` / `#endif` between an `if (...)` and its
// body), and `#pragma`, `#warning`, `#error`, `#line`, `#ident` lines anywhere. Blanking them
// lets the grammar see the statement around them.
class InertDirectives {
 public:
  explicit InertDirectives(ViewBuilder& builder) : builder_(builder) {}

  void code() {
    if (!groups_.empty()) groups_.back().hasCode = true;
  }

  void directive(std::string_view keyword, ByteRange range) {
    if (keyword == "pragma" || keyword == "warning" || keyword == "error" || keyword == "line" ||
        keyword == "ident") {
      blank(range);
      return;
    }
    if (keyword == "if" || keyword == "ifdef" || keyword == "ifndef") {
      groups_.push_back({});
    } else if (groups_.empty()) {
      return;
    }
    Group& group = groups_.back();
    group.lines.push_back(range);
    if (keyword != "endif") return;
    if (!group.hasCode) {
      for (ByteRange line : group.lines) blank(line);
    }
    bool hadCode = group.hasCode;
    groups_.pop_back();
    if (hadCode) code();
  }

 private:
  struct Group {
    std::vector<ByteRange> lines;
    bool hasCode = false;
  };
  void blank(ByteRange range) {
    builder_.blank(range.begin, range.end);
    builder_.change({range, ViewKind::Directive, 0, range.end});
  }
  ViewBuilder& builder_;
  std::vector<Group> groups_;
};

// Pass 1, over the directives: the text's object-like `#define`s, classified and resolved
// against each other and the built-in table; inert directives blanked into `builder`.
MacroTable macroTable(std::string_view text, std::uint32_t start, ViewBuilder& builder) {
  std::unordered_map<std::string_view, MacroClass> defined;
  InertDirectives inert(builder);
  Lexer lexer(text, start);
  Lexeme lexeme = lexer.next();
  std::vector<Lexeme> line;
  while (lexeme.kind != LexKind::End) {
    if (lexeme.directive == 0) {
      inert.code();
      lexeme = lexer.next();
      continue;
    }
    // One directive's lexemes: `#`, its keyword, the rest.
    std::uint32_t directive = lexeme.directive;
    line.clear();
    while (lexeme.kind != LexKind::End && lexeme.directive == directive) {
      line.push_back(lexeme);
      lexeme = lexer.next();
    }
    if (line.size() < 2 || line[1].kind != LexKind::Identifier) continue;
    std::string_view keyword = spellingOf(text, line[1]);
    inert.directive(keyword, {line.front().begin, line.back().end});
    if (keyword != "define" || line.size() < 3 || line[2].kind != LexKind::Identifier) continue;
    std::string_view name = spellingOf(text, line[2]);
    bool functionLike = line[2].end < text.size() && text[line[2].end] == '(';
    std::vector<Lexeme> body(line.begin() + 3, line.end());
    defined[name].merge(functionLike ? MacroClass{} : classifyBody(text, body));
  }

  std::unordered_map<std::string_view, std::uint16_t> builtins;
  for (const BuiltinMacro& macro : kBuiltinQualifierMacros) builtins.emplace(macro.name, macro.qualifiers);
  // Resolve qualifier macros naming other macros: a use of a name that is neither a qualifier
  // macro nor a built-in one makes the user an ordinary macro; bits flow from the used ones.
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto& [name, entry] : defined) {
      if (entry.kind != MacroClass::Qualifier) continue;
      for (std::string_view used : entry.uses) {
        auto it = defined.find(used);
        std::uint16_t bits = 0;
        if (it != defined.end()) {
          if (it->second.kind != MacroClass::Qualifier) {
            entry.kind = MacroClass::Other;
            changed = true;
            break;
          }
          bits = it->second.qualifiers;
        } else if (auto builtin = builtins.find(used); builtin != builtins.end()) {
          bits = builtin->second;
        } else {
          entry.kind = MacroClass::Other;
          changed = true;
          break;
        }
        if ((entry.qualifiers | bits) != entry.qualifiers) {
          entry.qualifiers |= bits;
          changed = true;
        }
      }
    }
  }

  MacroTable table;
  for (const BuiltinMacro& macro : kBuiltinQualifierMacros) {
    if (!defined.contains(macro.name)) table.add(macro.name, {ViewKind::QualifierMacro, macro.qualifiers, {}});
  }
  for (const auto& [name, literal] : kBuiltinStringMacros) {
    if (!defined.contains(name)) table.add(name, {ViewKind::StringMacro, 0, literal});
  }
  for (const auto& [name, entry] : defined) {
    if (entry.kind == MacroClass::Qualifier) {
      table.add(name, {ViewKind::QualifierMacro, entry.qualifiers, {}});
    } else if (entry.kind == MacroClass::String) {
      std::string_view literal = text.substr(entry.literalBegin, entry.literalEnd - entry.literalBegin);
      table.add(name, {ViewKind::StringMacro, 0, literal.size() <= name.size() ? literal : std::string_view("\"\"")});
    }
  }
  return table;
}

// ── Building the view ─────────────────────────────────────────────────────────────────────


// `NV_IF_TARGET(` at `open`: turns the call into a block of blocks (see CudaSyntax.h). Leaves
// the view unchanged when the call does not close or its brackets do not match.
void rewriteTargetDispatch(std::string_view text, const Lexeme& name, const Lexeme& open, ViewBuilder& builder) {
  Lexer lexer(text, open.end);
  struct Edit {
    std::uint32_t at;
    char c;
  };
  std::vector<Edit> edits{{open.begin, '{'}};
  std::vector<char> closers{')'};
  // The argument being read at depth 1: where its first token is an opening parenthesis, that
  // parenthesis, until the argument is known to be exactly one parenthesized group.
  std::int64_t groupOpen = -1;
  std::int64_t groupClose = -1;
  bool argumentStart = true;
  for (Lexeme l = lexer.next(); l.kind != LexKind::End; l = lexer.next()) {
    if (l.directive != 0) continue;
    char c = l.kind == LexKind::Punct ? text[l.begin] : '\0';
    if (closers.size() == 1 && argumentStart) {
      groupOpen = c == '(' ? l.begin : -1;
      groupClose = -1;
    } else if (closers.size() == 1 && groupClose >= 0 && c != ',' && c != ')') {
      groupOpen = -1;  // Something follows the group: not a block argument.
    }
    argumentStart = false;
    if (c == '(' || c == '[' || c == '{') {
      closers.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
    } else if (c == ')' || c == ']' || c == '}') {
      if (c != closers.back()) return;
      closers.pop_back();
      if (closers.size() == 1 && groupOpen >= 0 && groupClose < 0) groupClose = l.begin;
      if (closers.empty()) {
        if (groupOpen >= 0 && groupClose >= 0) {
          edits.push_back({static_cast<std::uint32_t>(groupOpen), '{'});
          edits.push_back({static_cast<std::uint32_t>(groupClose), '}'});
        }
        edits.push_back({l.begin, '}'});
        builder.blank(name.begin, name.end);
        for (const Edit& edit : edits) builder.patch(edit.at, std::string_view(&edit.c, 1));
        builder.change({{name.begin, name.end}, ViewKind::TargetDispatch, 0, l.end});
        return;
      }
    } else if (c == ',' && closers.size() == 1) {
      if (groupOpen >= 0 && groupClose >= 0) {
        edits.push_back({static_cast<std::uint32_t>(groupOpen), '{'});
        edits.push_back({static_cast<std::uint32_t>(groupClose), '}'});
      }
      edits.push_back({l.begin, ';'});
      argumentStart = true;
      groupOpen = groupClose = -1;
    }
  }
}

// Pass 2: every occurrence outside directives.
View buildView(std::string_view text) {
  ViewBuilder builder(text);
  std::uint32_t start = 0;
  if (text.starts_with("\xEF\xBB\xBF")) {
    builder.blank(0, 3);
    builder.change({{0, 3}, ViewKind::ByteOrderMark, 0, 3});
    start = 3;
  }
  MacroTable table = macroTable(text, start, builder);
  Lexer lexer(text, start);
  Lexeme previous;          // The last token outside directives.
  Lexeme beforePrevious;
  bool previousWasLambdaQualifier = false;
  Lexeme l = lexer.next();
  while (l.kind != LexKind::End) {
    if (l.directive != 0) {
      l = lexer.next();
      continue;
    }
    Lexeme following = lexer.next();
    bool lambdaQualifier = false;
    if (l.kind == LexKind::Identifier) {
      std::string_view word = spellingOf(text, l);
      if (const MacroTable::Entry* entry = table.find(word)) {
        if (entry->kind == ViewKind::StringMacro) {
          std::string bytes(entry->literal);
          bytes.resize(word.size(), ' ');
          builder.patch(l.begin, bytes);
        } else {
          builder.blank(l.begin, l.end);
        }
        builder.change({{l.begin, l.end}, entry->kind, entry->qualifiers, l.end});
      } else if (isNamespaceMacro(word)) {
        builder.blank(l.begin, l.end);
        builder.change({{l.begin, l.end}, ViewKind::NamespaceMacro, 0, l.end});
      } else if ((word == "__device__" || word == "__host__" || word == "__global__") &&
                 (previousWasLambdaQualifier ||
                  (previous.kind == LexKind::Punct && text[previous.begin] == ']' &&
                   !(beforePrevious.kind == LexKind::Punct && text[beforePrevious.begin] == ']')))) {
        // After a lambda's captures `[...]`, not after an attribute `[[...]]`.
        builder.blank(l.begin, l.end);
        builder.change({{l.begin, l.end}, ViewKind::LambdaQualifier, qualifierBitsOfWord(word), l.end});
        lambdaQualifier = true;
      } else if ((word == "__align__" || word == "__builtin_align__") && following.kind == LexKind::Punct &&
                 text[following.begin] == '(' && following.directive == 0) {
        // Through the closing parenthesis (a short stretch; no newline needed).
        Lexer args(text, following.end);
        int depth = 1;
        Lexeme a = args.next();
        for (; a.kind != LexKind::End && a.directive == 0 && a.begin - l.begin < 256; a = args.next()) {
          if (a.kind != LexKind::Punct) continue;
          if (text[a.begin] == '(') ++depth;
          if (text[a.begin] == ')' && --depth == 0) break;
        }
        if (depth == 0 && a.kind == LexKind::Punct) {
          builder.blank(l.begin, a.end);
          builder.change({{l.begin, a.end}, ViewKind::AlignMacro, 0, a.end});
        }
      } else if (isTargetDispatch(word) && following.kind == LexKind::Punct && text[following.begin] == '(' &&
                 following.directive == 0) {
        bool statementStart = l.startsLine || previous.kind == LexKind::End ||
                              (previous.kind == LexKind::Punct && std::strchr(";{})", text[previous.begin]) != nullptr);
        if (statementStart) rewriteTargetDispatch(text, l, following, builder);
      }
    }
    previousWasLambdaQualifier = lambdaQualifier;
    beforePrevious = previous;
    previous = l;
    l = following;
  }
  return builder.finish();
}

// ── Parsing ───────────────────────────────────────────────────────────────────────────────

struct ViewInput {
  std::string_view text;
  const View* view = nullptr;
  std::size_t hint = 0;  // Index of the patch the last read stopped at (reads are sequential).
};

const char* readView(void* payload, std::uint32_t byteIndex, TSPoint, std::uint32_t* bytesRead) {
  auto* input = static_cast<ViewInput*>(payload);
  const std::string_view text = input->text;
  if (byteIndex >= text.size()) {
    *bytesRead = 0;
    return "";
  }
  const auto& patches = input->view->patches;
  // The first patch ending after byteIndex.
  std::size_t k = input->hint;
  if (!(k <= patches.size() && (k == patches.size() || patches[k].end > byteIndex) &&
        (k == 0 || patches[k - 1].end <= byteIndex))) {
    k = static_cast<std::size_t>(
        std::upper_bound(patches.begin(), patches.end(), byteIndex,
                         [](std::uint32_t offset, const View::Patch& p) { return offset < p.end; }) -
        patches.begin());
  }
  input->hint = k;
  if (k < patches.size() && patches[k].begin <= byteIndex) {
    std::string_view bytes = input->view->replacement(patches[k]);
    *bytesRead = patches[k].end - byteIndex;
    return bytes.data() + (byteIndex - patches[k].begin);
  }
  std::uint32_t until = k < patches.size() ? patches[k].begin : static_cast<std::uint32_t>(text.size());
  *bytesRead = until - byteIndex;
  return text.data() + byteIndex;
}

// `ranges` empty: the whole text.
TSTree* runParser(const TSTree* old, std::string_view text, const View& view, const ParseOptions& options,
                  std::span<const TSRange> ranges = {}) {
  TSParser* parser = threadParser();
  if (!ranges.empty()) ts_parser_set_included_ranges(parser, ranges.data(), static_cast<std::uint32_t>(ranges.size()));
  ts_parser_set_timeout_micros(parser, options.timeoutMicros);
  // tree-sitter reads the flag with an atomic load through a plain pointer.
  static_assert(sizeof(std::atomic<std::size_t>) == sizeof(std::size_t));
  ts_parser_set_cancellation_flag(parser, reinterpret_cast<const std::size_t*>(options.cancellation));
  ViewInput payload{text, &view, 0};
  TSInput input{&payload, readView, TSInputEncodingUTF8};
  TSTree* tree = ts_parser_parse(parser, old, input);
  ts_parser_set_cancellation_flag(parser, nullptr);
  ts_parser_set_timeout_micros(parser, 0);
  if (!ranges.empty()) ts_parser_set_included_ranges(parser, nullptr, 0);
  if (tree == nullptr) ts_parser_reset(parser);
  return tree;
}

TSTree* emptyTree() { return ts_parser_parse_string(threadParser(), nullptr, "", 0); }

struct TreeDeleter {
  void operator()(TSTree* tree) const { ts_tree_delete(tree); }
};

// The state a text gets before any parsing: Binary, TooLarge, CommentRun, or Parsed (go ahead).
CudaSyntaxTree::State admission(std::string_view text, const CudaParseOptions& options) {
  if (std::memchr(text.data(), '\0', text.size()) != nullptr) return CudaSyntaxTree::State::Binary;
  if (text.size() > options.maxTextBytes || text.size() >= UINT32_MAX) return CudaSyntaxTree::State::TooLarge;
  if (longestExtrasRun(text) > kMaxExtrasInARow) return CudaSyntaxTree::State::CommentRun;
  return CudaSyntaxTree::State::Parsed;
}

// How a reparse can reuse the old tree. The parser's view of a byte may change with an edit
// beyond the edited bytes: a patch that overlaps or touches an edit (the rest of a string
// macro's literal, a blanked name the edit shortened) is re-read as a whole, so such patches,
// old (carried through the edits) and new, become extra same-length edits over their bytes.
// Everywhere else the view must be unchanged, or there is no reuse (nullopt: parse afresh).
std::optional<std::vector<ByteRange>> viewRegionsToInvalidate(const View& old, const View& next,
                                                              std::span<const SyntaxEdit> edits) {
  struct Moved {
    std::uint32_t begin, end;
    std::string_view bytes;
    bool touched = false;
  };
  std::vector<Moved> carried;
  carried.reserve(old.patches.size());
  for (const auto& p : old.patches) carried.push_back({p.begin, p.end, old.replacement(p)});
  std::vector<ByteRange> dirty;
  for (const SyntaxEdit& edit : edits) {
    const std::uint32_t start = edit.startByte, oldEnd = edit.oldEndByte, newEnd = edit.newEndByte;
    auto shift = [&](std::uint32_t offset) { return offset - oldEnd + newEnd; };
    // A range through the edit: the parts outside it keep their bytes; a range reaching into
    // it covers the edit's new bytes.
    auto carry = [&](std::uint32_t& begin, std::uint32_t& end) {
      bool touches = begin <= oldEnd && start <= end;
      if (end < start || (end == start && begin < start)) return touches;
      if (begin > oldEnd || (begin == oldEnd && end > oldEnd)) {
        begin = shift(begin);
        end = shift(end);
        return touches;
      }
      std::uint32_t newBegin = std::min(begin, start);
      end = end > oldEnd ? shift(end) : newEnd;
      begin = newBegin;
      return true;
    };
    for (Moved& m : carried) m.touched |= carry(m.begin, m.end);
    ByteRange grown{start, newEnd};
    std::vector<ByteRange> spans;
    for (ByteRange s : dirty) {
      if (carry(s.begin, s.end)) {
        grown.begin = std::min(grown.begin, s.begin);
        grown.end = std::max(grown.end, s.end);
      } else {
        spans.push_back(s);
      }
    }
    spans.push_back(grown);
    dirty = std::move(spans);
  }
  auto touchesEdit = [&](std::uint32_t begin, std::uint32_t end) {
    return std::any_of(dirty.begin(), dirty.end(), [&](ByteRange s) { return begin <= s.end && s.begin <= end; });
  };
  std::vector<ByteRange> regions;
  std::size_t i = 0;
  std::size_t j = 0;
  while (true) {
    for (; i < carried.size() && (carried[i].touched || touchesEdit(carried[i].begin, carried[i].end)); ++i) {
      regions.push_back({carried[i].begin, carried[i].end});
    }
    for (; j < next.patches.size() && touchesEdit(next.patches[j].begin, next.patches[j].end); ++j) {
      regions.push_back({next.patches[j].begin, next.patches[j].end});
    }
    if (i == carried.size() || j == next.patches.size()) {
      if (i != carried.size() || j != next.patches.size()) return std::nullopt;
      break;
    }
    const auto& n = next.patches[j];
    if (carried[i].begin != n.begin || carried[i].end != n.end || carried[i].bytes != next.replacement(n)) {
      return std::nullopt;
    }
    ++i;
    ++j;
  }
  return regions;
}

// Same-length edits over `regions` of `text`: tree-sitter re-reads whatever overlaps them.
void invalidate(TSTree* tree, std::string_view text, std::vector<ByteRange> regions) {
  if (regions.empty()) return;
  std::sort(regions.begin(), regions.end(), [](ByteRange a, ByteRange b) { return a.begin < b.begin; });
  // Points by one pass over the text up to the last region.
  TSPoint point{0, 0};
  std::uint32_t at = 0;
  auto advance = [&](std::uint32_t offset) {
    for (; at < offset; ++at) {
      if (text[at] == '\n') {
        ++point.row;
        point.column = 0;
      } else {
        ++point.column;
      }
    }
    return point;
  };
  for (ByteRange region : regions) {
    region.end = std::min<std::uint32_t>(region.end, static_cast<std::uint32_t>(text.size()));
    region.begin = std::min(region.begin, region.end);
    TSPoint begin = advance(region.begin);
    TSPoint end = advance(region.end);
    TSInputEdit touch{region.begin, region.end, region.end, begin, end, end};
    ts_tree_edit(tree, &touch);
  }
}

}  // namespace

const TSLanguage* cudaLanguage() { return tree_sitter_cuda(); }

std::uint16_t qualifierBitsOfWord(std::string_view word) {
  static const std::unordered_map<std::string_view, std::uint16_t> kWords = {
      {"__global__", kQualGlobal},       {"__device__", kQualDevice},          {"__host__", kQualHost},
      {"__forceinline__", kQualForceInline}, {"__forceinline", kQualForceInline}, {"inline", kQualInline},
      {"__inline", kQualInline},         {"__inline__", kQualInline},          {"__noinline__", kQualNoinline},
      {"constexpr", kQualConstexpr},     {"consteval", kQualConstexpr},        {"static", kQualStatic},
  };
  auto it = kWords.find(word);
  return it == kWords.end() ? 0 : it->second;
}

std::span<const ViewChange> CudaSyntaxTree::viewChanges() const {
  if (!view_) return {};
  return view_->changes;
}

CudaSyntaxTree parseCudaSyntax(std::string_view text, const CudaParseOptions& options) {
  CudaSyntaxTree result;
  result.state_ = admission(text, options);
  if (result.state_ != CudaSyntaxTree::State::Parsed) {
    result.tree_.reset(emptyTree(), TreeDeleter{});
    return result;
  }
  auto view = std::make_shared<View>(options.adaptView ? buildView(text) : View{});
  TSTree* tree = runParser(nullptr, text, *view, options.parse);
  if (tree == nullptr) {
    result.state_ = CudaSyntaxTree::State::Stopped;
    tree = emptyTree();
  } else {
    result.view_ = std::move(view);
  }
  result.tree_.reset(tree, TreeDeleter{});
  return result;
}

CudaSyntaxTree reparseCudaSyntax(const CudaSyntaxTree& old, std::string_view newText, const SyntaxEdit& edit,
                                 const CudaParseOptions& options) {
  return reparseCudaSyntax(old, newText, std::span<const SyntaxEdit>(&edit, 1), options);
}

CudaSyntaxTree reparseCudaSyntax(const CudaSyntaxTree& old, std::string_view newText,
                                 std::span<const SyntaxEdit> edits, const CudaParseOptions& options) {
  if (!old.isComplete() || admission(newText, options) != CudaSyntaxTree::State::Parsed) {
    return parseCudaSyntax(newText, options);
  }
  auto view = std::make_shared<View>(options.adaptView ? buildView(newText) : View{});
  static const View kNoView;
  const View& oldView = old.view_ ? *old.view_ : kNoView;
  const TSTree* base = nullptr;
  TSTree* edited = nullptr;
  if (auto regions = viewRegionsToInvalidate(oldView, *view, edits)) {
    // ts_tree_edit mutates, and `old` may be shared with readers: edit a cheap copy.
    edited = ts_tree_copy(old.tree_.get());
    for (const SyntaxEdit& e : edits) {
      TSInputEdit input{e.startByte, e.oldEndByte, e.newEndByte, e.start, e.oldEnd, e.newEnd};
      ts_tree_edit(edited, &input);
    }
    invalidate(edited, newText, std::move(*regions));
    base = edited;
  }
  TSTree* tree = runParser(base, newText, *view, options.parse);
  if (edited != nullptr) ts_tree_delete(edited);
  CudaSyntaxTree result;
  if (tree == nullptr) {
    result.state_ = CudaSyntaxTree::State::Stopped;
    tree = emptyTree();
  } else {
    result.view_ = std::move(view);
  }
  result.tree_.reset(tree, TreeDeleter{});
  return result;
}

// ── Parsing in pieces ─────────────────────────────────────────────────────────────────────

namespace {

// A conditional group as the cut finder sees it.
struct ConditionalGroup {
  ByteRange opening;  // The `#if`/`#ifdef`/`#ifndef` line.
  ByteRange closing;  // The `#endif` line; empty until seen.
  bool hasAlternative = false;  // An `#else` or `#elif*`.
};

struct CutCandidate {
  std::uint32_t offset = 0;
  std::vector<std::uint32_t> open;  // Indices of the groups open there, outermost first.
};

bool isPunct(std::string_view text, const Lexeme& l, char c) { return l.kind == LexKind::Punct && text[l.begin] == c; }

}  // namespace

std::vector<TextCut> topLevelCuts(std::string_view text) {
  std::vector<ConditionalGroup> groups;
  std::vector<std::uint32_t> openGroups;
  std::vector<CutCandidate> candidates;
  // Nesting of (), [] and {} outside directives; once it goes below zero (a brace under an
  // `#if` with an `#else`, say) nothing after is trusted.
  int depth = 0;
  bool broken = false;
  Lexeme previousCode;  // The last lexeme outside directives.
  Lexer lexer(text, text.starts_with("\xEF\xBB\xBF") ? 3 : 0);
  Lexeme l = lexer.next();
  while (l.kind != LexKind::End && !broken) {
    if (l.directive != 0) {
      std::uint32_t directive = l.directive;
      Lexeme hash = l;
      Lexeme keyword = lexer.next();
      Lexeme last = keyword.directive == directive ? keyword : hash;
      Lexeme after = keyword;
      while (after.kind != LexKind::End && after.directive == directive) {
        last = after;
        after = lexer.next();
      }
      ByteRange line{hash.begin, last.end};
      bool atCut = depth == 0 && previousCode.kind == LexKind::Punct &&
                   (isPunct(text, previousCode, ';') || isPunct(text, previousCode, '}'));
      std::string_view word = keyword.directive == directive && keyword.kind == LexKind::Identifier
                                  ? spellingOf(text, keyword)
                                  : std::string_view{};
      // A cut before a directive line; before an `#endif` it falls after the group.
      if (atCut && word != "else" && !word.starts_with("elif")) candidates.push_back({hash.begin, openGroups});
      if (word == "if" || word == "ifdef" || word == "ifndef") {
        openGroups.push_back(static_cast<std::uint32_t>(groups.size()));
        groups.push_back({line, {}, false});
      } else if (word == "else" || word.starts_with("elif")) {
        if (!openGroups.empty()) groups[openGroups.back()].hasAlternative = true;
      } else if (word == "endif") {
        if (openGroups.empty()) {
          broken = true;
        } else {
          groups[openGroups.back()].closing = line;
          openGroups.pop_back();
        }
      }
      l = after;
      continue;
    }
    Lexeme next = lexer.next();
    if (l.startsLine && depth == 0 && l.kind == LexKind::Identifier &&
        (isPunct(text, previousCode, ';') || isPunct(text, previousCode, '}'))) {
      // Not the rest of a declaration or statement the line before began: `} else`,
      // `} while (c);`, `struct S { ... }` then `s;` on the next line.
      std::string_view word = spellingOf(text, l);
      bool continues = word == "else" || word == "catch" || word == "while" ||
                       (next.directive == 0 && next.kind == LexKind::Punct && std::strchr(";,=[)", text[next.begin]));
      if (!continues) candidates.push_back({l.begin, openGroups});
    }
    if (l.kind == LexKind::Punct) {
      char c = text[l.begin];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') broken = --depth < 0;
    }
    previousCode = l;
    l = next;
  }
  std::vector<TextCut> cuts;
  if (broken) return cuts;
  for (const CutCandidate& candidate : candidates) {
    // Every group open at the cut must be closed, and without alternatives: each piece then
    // holds one stretch of the group's only branch.
    bool plain = std::all_of(candidate.open.begin(), candidate.open.end(), [&](std::uint32_t g) {
      return !groups[g].hasAlternative && groups[g].closing.end > groups[g].closing.begin;
    });
    if (!plain || candidate.offset == 0) continue;
    TextCut cut{candidate.offset, {}};
    for (std::uint32_t g : candidate.open) {
      cut.leftOut.push_back(groups[g].opening);
      cut.leftOut.push_back(groups[g].closing);
    }
    if (cuts.empty() || cuts.back().offset < cut.offset) cuts.push_back(std::move(cut));
  }
  return cuts;
}

CudaTextPieces::CudaTextPieces(std::string_view text, std::size_t count, const CudaParseOptions& options)
    : text_(text), options_(options), state_(admission(text, options)) {
  if (state_ != CudaSyntaxTree::State::Parsed) {
    pieces_.emplace_back();
    extents_.push_back({0, static_cast<std::uint32_t>(text.size())});
    return;
  }
  view_ = std::make_shared<View>(options.adaptView ? buildView(text) : View{});
  // The cuts nearest to each k/count of the text, a cut at most half a piece away.
  std::vector<TextCut> chosen;
  if (count > 1) {
    std::vector<TextCut> cuts = topLevelCuts(text);
    const double pieceBytes = static_cast<double>(text.size()) / static_cast<double>(count);
    for (std::size_t k = 1; k < count && !cuts.empty(); ++k) {
      const double target = pieceBytes * static_cast<double>(k);
      auto nearest = std::min_element(cuts.begin(), cuts.end(), [&](const TextCut& a, const TextCut& b) {
        return std::abs(a.offset - target) < std::abs(b.offset - target);
      });
      if (std::abs(nearest->offset - target) > pieceBytes / 2) continue;
      if (!chosen.empty() && chosen.back().offset >= nearest->offset) continue;
      chosen.push_back(*nearest);
    }
  }
  // Every left-out line, in order; then each piece's bytes minus those lines.
  std::vector<ByteRange> leftOut;
  for (const TextCut& cut : chosen) leftOut.insert(leftOut.end(), cut.leftOut.begin(), cut.leftOut.end());
  std::sort(leftOut.begin(), leftOut.end(), [](ByteRange a, ByteRange b) { return a.begin < b.begin; });
  leftOut.erase(std::unique(leftOut.begin(), leftOut.end(),
                            [](ByteRange a, ByteRange b) { return a.begin == b.begin; }),
                leftOut.end());
  // Rows and columns of the range ends, counted once over the text.
  std::uint32_t row = 0;
  std::uint32_t lineStart = 0;
  std::uint32_t counted = 0;
  auto pointAt = [&](std::uint32_t offset) {
    for (; counted < offset; ++counted) {
      if (text[counted] == '\n') {
        ++row;
        lineStart = counted + 1;
      }
    }
    return TSPoint{row, offset - lineStart};
  };
  auto range = [&](std::uint32_t begin, std::uint32_t end) {
    TSPoint start = pointAt(begin);
    return TSRange{start, pointAt(end), begin, end};
  };
  std::uint32_t begin = 0;
  std::size_t skipped = 0;
  for (std::size_t k = 0; k <= chosen.size(); ++k) {
    std::uint32_t end = k < chosen.size() ? chosen[k].offset : static_cast<std::uint32_t>(text.size());
    std::vector<TSRange> ranges;
    std::uint32_t from = begin;
    for (; skipped < leftOut.size() && leftOut[skipped].begin < end; ++skipped) {
      if (leftOut[skipped].begin > from) ranges.push_back(range(from, leftOut[skipped].begin));
      from = std::max(from, leftOut[skipped].end);
    }
    if (end > from) ranges.push_back(range(from, end));
    if (ranges.empty()) ranges.push_back(range(begin, begin));
    pieces_.push_back(std::move(ranges));
    extents_.push_back({begin, end});
    begin = end;
  }
  if (pieces_.size() == 1) pieces_.front().clear();  // The whole text, as parseCudaSyntax reads it.
}

ByteRange CudaTextPieces::extent(std::size_t k) const { return extents_[k]; }

CudaSyntaxTree CudaTextPieces::parse(std::size_t k) const {
  CudaSyntaxTree result;
  result.state_ = state_;
  result.whole_ = pieces_.size() == 1;
  if (state_ != CudaSyntaxTree::State::Parsed) {
    result.tree_.reset(emptyTree(), TreeDeleter{});
    return result;
  }
  TSTree* tree = runParser(nullptr, text_, *view_, options_.parse, pieces_[k]);
  if (tree == nullptr) {
    result.state_ = CudaSyntaxTree::State::Stopped;
    tree = emptyTree();
  } else {
    result.view_ = view_;
  }
  result.tree_.reset(tree, TreeDeleter{});
  return result;
}

}  // namespace ptx::cuda

// SyntaxTextChecks: the syntax checks found from the text rather than the tree — non-ASCII
// bytes, preprocessor lines, and a file that ends inside a function body.
#include <cctype>
#include <optional>

#include "isa/InstructionFacts.h"
#include "syntax/SyntaxCollector.h"

namespace ptx::syntaxcheck {
namespace {

constexpr std::size_t kMaxQuotedToken = 40;

// `# 12 "file.cu"` and `#line 12 "file.cu"` are line markers ptxas honours; anything else
// must be expanded by the C preprocessor first.
bool isLineMarker(std::string_view line) {
  std::size_t i = 1;
  auto skipBlanks = [&] {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  };
  skipBlanks();
  if (line.compare(i, 4, "line") == 0) {
    i += 4;
    if (i < line.size() && line[i] != ' ' && line[i] != '\t') return false;
    skipBlanks();
  }
  std::size_t digits = i;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
  if (i == digits) return false;
  skipBlanks();
  return i < line.size() && line[i] == '"' && line.find('"', i + 1) != std::string_view::npos;
}

void reportPreprocessorLine(Collector& out, TSNode node) {
  std::string_view line = nodeText(out.text(), node);
  if (isLineMarker(line)) return;
  std::size_t nameEnd = 1;
  while (nameEnd < line.size() && !isSpace(line[nameEnd])) ++nameEnd;
  std::string_view directive = line.substr(0, nameEnd);
  std::string message =
      directive.size() > 1
          ? "preprocessor directive " + quote(directive) +
                " is not PTX: run the C preprocessor first (ptxas accepts only '# N \"file\"' "
                "line markers)"
          : std::string("line marker needs a line number and a quoted file name: '# N \"file\"'");
  auto begin = ts_node_start_byte(node);
  out.report("SYN005", {begin, begin + static_cast<std::uint32_t>(nameEnd)}, std::move(message));
}

// A file that ends inside a function body (cut off while being written or copied): the parse
// then either takes the body's '{' for a stray brace at module level ("unexpected '{'") or
// invents a closing '}' at the end; both point away from the cause. Found from the text: the
// braces still open at the end of the file (outside comments and strings), the outermost one
// opened by a `.entry`/`.func` header, and no function header after it (a body that lacks its
// '}' before the next function is a different mistake, which the parse reports where it shows).
struct UnclosedBody {
  std::uint32_t itemStart = 0;  // The start of the function's header (after the previous item).
  std::uint32_t brace = 0;      // Its body's '{'.
  std::string name;             // The function's name, when it could be read.
};

// The name after a `.entry`/`.func` keyword ending at `at`: `.func (.param .b32 r) name (...)`.
std::string functionNameAfter(std::string_view text, std::size_t at, std::size_t limit) {
  auto skipBlanks = [&] {
    while (at < limit && isSpace(text[at])) ++at;
  };
  skipBlanks();
  if (at < limit && text[at] == '(') {
    auto close = text.find(')', at);
    if (close == std::string_view::npos || close >= limit) return {};
    at = close + 1;
    skipBlanks();
  }
  std::size_t begin = at;
  while (at < limit && (std::isalnum(static_cast<unsigned char>(text[at])) != 0 || text[at] == '_' ||
                        text[at] == '$' || text[at] == '%')) {
    ++at;
  }
  return std::string(text.substr(begin, at - begin));
}

std::optional<UnclosedBody> findUnclosedBody(std::string_view text) {
  std::vector<std::uint32_t> open;  // Offsets of the '{' still open.
  std::uint32_t itemStart = 0;     // After the last ';' or '}' at module level.
  // The end of a `.entry`/`.func` at module level in the current item, or npos.
  std::size_t keywordEnd = std::string_view::npos;
  UnclosedBody body;
  bool bodyFound = false;
  bool headerAfterBody = false;
  std::uint32_t operandBraces = 0;  // Braces of vector operands open in the current statement.
  char previous = ';';              // The last byte that is no blank, outside comments and strings.
  std::size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (text.compare(i, 2, "//") == 0) {
      auto newline = text.find('\n', i);
      i = newline == std::string_view::npos ? text.size() : newline;
      continue;
    }
    if (text.compare(i, 2, "/*") == 0) {
      auto close = text.find("*/", i + 2);
      if (close == std::string_view::npos) return std::nullopt;  // Reported as an unterminated comment.
      i = close + 2;
      continue;
    }
    if (c == '"') {
      auto close = text.find('"', i + 1);
      if (close == std::string_view::npos) return std::nullopt;
      i = close + 1;
      continue;
    }
    if (c == '.' && (i == 0 || !(std::isalnum(static_cast<unsigned char>(text[i - 1])) != 0 || text[i - 1] == '_'))) {
      for (std::string_view keyword : {spellingOf(Modifier::Entry), spellingOf(Modifier::Func)}) {
        std::size_t end = i + keyword.size();
        if (text.compare(i, keyword.size(), keyword) == 0 &&
            (end >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) != 0 || text[end] == '_'))) {
          if (open.empty()) keywordEnd = end;
          if (bodyFound && !open.empty()) headerAfterBody = true;
        }
      }
    }
    if (c == '{') {
      if (open.empty()) {
        bodyFound = keywordEnd != std::string_view::npos;
        headerAfterBody = false;
        if (bodyFound) {
          body.itemStart = itemStart;
          body.brace = static_cast<std::uint32_t>(i);
          body.name = functionNameAfter(text, keywordEnd, i);
        }
        open.push_back(static_cast<std::uint32_t>(i));
      } else if (previous == ';' || previous == '{' || previous == '}' || previous == ':') {
        open.push_back(static_cast<std::uint32_t>(i));  // A block: it starts a statement.
      } else {
        ++operandBraces;  // A vector operand (`{%r1, %r2}`), closed within its statement.
      }
    } else if (c == '}') {
      if (operandBraces > 0) {
        --operandBraces;
      } else {
        if (!open.empty()) open.pop_back();
        if (open.empty()) {
          itemStart = static_cast<std::uint32_t>(i + 1);
          keywordEnd = std::string_view::npos;
          bodyFound = false;
        }
      }
    } else if (c == ';') {
      operandBraces = 0;  // A statement ends: an operand brace left open is its own error.
      if (open.empty()) {
        itemStart = static_cast<std::uint32_t>(i + 1);
        keywordEnd = std::string_view::npos;
      }
    }
    if (!isSpace(c)) previous = c;
    ++i;
  }
  if (open.empty() || !bodyFound || headerAfterBody) return std::nullopt;
  return body;
}

}  // namespace

// `text` quoted for a message: first line only, at most kMaxQuotedToken characters.
std::string quote(std::string_view token) {
  auto newline = token.find_first_of("\r\n");
  bool cut = newline != std::string_view::npos;
  token = token.substr(0, newline);
  if (token.size() > kMaxQuotedToken) {
    token = token.substr(0, kMaxQuotedToken);
    cut = true;
  }
  std::string quoted = "'";
  for (char c : token) {
    auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7F) {
      static constexpr char kHex[] = "0123456789ABCDEF";
      quoted += "\\x";
      quoted += kHex[byte >> 4];
      quoted += kHex[byte & 0xF];
    } else {
      quoted += c;
    }
  }
  quoted += cut ? "...'" : "'";
  return quoted;
}

void reportNonAscii(Collector& out, ByteRange focus) {
  std::string_view text = out.text().substr(0, std::min<std::size_t>(focus.end, out.text().size()));
  std::size_t i = focus.begin;
  while (i < text.size()) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && static_cast<unsigned char>(text[end]) >= 0x80) ++end;
    ByteRange range{static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(end)};
    out.nonAsciiRuns.push_back(range);
    if (i == 0 && text.substr(0, 3) == "\xEF\xBB\xBF") {
      out.report("SYN003", {0, 3},
                 "UTF-8 byte-order mark: PTX is ASCII-only and ptxas rejects any other byte");
      i = 3;
      continue;
    }
    out.report("SYN003", range,
               "non-ASCII character: ptxas accepts only ASCII source, even in comments and "
               "strings");
    i = end;
  }
}

bool insideNonAscii(const Collector& out, ByteRange range) {
  for (const ByteRange& run : out.nonAsciiRuns) {
    if (range.begin >= run.begin && range.begin < std::max(run.end, run.begin + 1)) return true;
  }
  return false;
}

// Preprocessor lines are extras, which tree-sitter may attach at any depth, so they are
// found from the text: a line whose first non-blank byte is '#' and whose node is one.
void reportPreprocessorLines(Collector& out, const SyntaxTree& tree, const SyntaxKinds& kinds, ByteRange focus) {
  std::string_view text = out.text().substr(0, std::min<std::size_t>(focus.end, out.text().size()));
  std::size_t lineStart = focus.begin;
  while (lineStart < text.size()) {
    std::size_t i = lineStart;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    if (i < text.size() && text[i] == '#') {
      auto at = static_cast<std::uint32_t>(i);
      TSNode node = ts_node_descendant_for_byte_range(tree.root(), at, at + 1);
      if (ts_node_symbol(node) == kinds.preprocessorLine && ts_node_start_byte(node) == at) {
        reportPreprocessorLine(out, node);
      }
    }
    auto newline = text.find('\n', lineStart);
    if (newline == std::string_view::npos) break;
    lineStart = newline + 1;
  }
}


void reportUnclosedBody(Collector& out, ByteRange focus) {
  std::string_view text = out.text();
  auto body = findUnclosedBody(text);
  if (!body || body->brace < focus.begin || body->brace >= focus.end) return;
  auto end = static_cast<std::uint32_t>(text.size());
  std::uint32_t lastEnd = previousTokenEnd(text, end);
  std::uint32_t lastLine = lastEnd == 0 ? 0 : static_cast<std::uint32_t>(text.rfind('\n', lastEnd - 1) + 1);
  // The parse's view of the same problem: the body's '{' taken for a stray brace, a '}'
  // invented at the end, or the cut statement on the last line.
  out.dropIf([&](const Diagnostic& d) {
    if (d.rule == "SYN003" || d.rule == "SYN005") return false;
    return d.range.begin == body->brace || d.range.begin >= lastLine ||
           (d.rule == "SYN002" && d.message.starts_with("expected '}'") && d.range.begin > body->brace);
  });
  auto line = static_cast<std::uint32_t>(std::count(text.begin(), text.begin() + body->brace, '\n') + 1);
  std::string function = body->name.empty() ? std::string("the function") : "function '" + body->name + "'";
  out.report("SYN002", {lastEnd, std::max(end, lastEnd)},
             "the file ends inside the body of " + function + " opened at line " + std::to_string(line) +
                 ": expected '}' to close it (is the file truncated?)",
             {{{body->brace, body->brace + 1}, "the body of " + function + " opens here"}});
}

}  // namespace ptx::syntaxcheck

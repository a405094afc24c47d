// FunctionBodies: one pass over the text, tracking brace depth outside comments, strings and
// preprocessor lines, and, at depth 0, what the current module item has said so far.
#include "syntax/FunctionBodies.h"

#include <array>

#include "syntax/SyntaxKinds.h"
#include "syntax/SyntaxTree.h"

namespace ptx {
namespace {

bool identifierByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         c == '%';
}

// Whether `text` at `at` (a '.') spells the directive `word` as a whole token.
bool directiveAt(std::string_view text, std::size_t at, std::string_view word) {
  if (text.compare(at, word.size(), word) != 0) return false;
  std::size_t after = at + word.size();
  return after >= text.size() || !identifierByte(text[after]);
}

}  // namespace

std::vector<BodyInterior> functionBodyInteriors(std::string_view text) { return bracedInteriors(text).bodies; }

BracedInteriors bracedInteriors(std::string_view text) {
  BracedInteriors found;
  if (text.size() >= UINT32_MAX) return {};
  static constexpr auto kSpecial = [] {
    std::array<bool, 256> special{};
    for (unsigned char c : std::string_view("\n/\"{};=.")) special[c] = true;
    return special;
  }();
  const std::size_t size = text.size();
  std::uint32_t row = 0;
  std::size_t lineStart = 0;
  long depth = 0;
  bool functionItem = false;  // At depth 0: the current item named .entry or .func...
  bool sectionItem = false;   // ...or .section...
  bool initializer = false;   // ...or has an '=' (its braces hold values).
  bool inBody = false, inSection = false;
  BodyInterior open;
  auto pointOf = [&](std::size_t offset) {
    return TSPoint{row, static_cast<std::uint32_t>(offset - lineStart)};
  };
  std::size_t i = 0;
  while (i < size) {
    while (i < size && !kSpecial[static_cast<unsigned char>(text[i])]) ++i;
    if (i >= size) break;
    char c = text[i++];
    switch (c) {
      case '\n': {
        ++row;
        lineStart = i;
        std::size_t first = i;
        while (first < size && (text[first] == ' ' || text[first] == '\t' || text[first] == '\r')) ++first;
        if (first < size && text[first] == '#') {
          // A preprocessor line or line marker: an extra, like a comment.
          std::size_t newline = text.find('\n', first);
          i = newline == std::string_view::npos ? size : newline;
        }
        break;
      }
      case '/':
        if (i < size && text[i] == '/') {
          std::size_t newline = text.find('\n', i);
          i = newline == std::string_view::npos ? size : newline;
        } else if (i < size && text[i] == '*') {
          std::size_t close = text.find("*/", i + 1);
          if (close == std::string_view::npos) return {};
          for (std::size_t k = i; k < close; ++k) {
            if (text[k] == '\n') {
              ++row;
              lineStart = k + 1;
            }
          }
          i = close + 2;
        }
        break;
      case '"':
        while (i < size && text[i] != '"' && text[i] != '\n') ++i;
        if (i >= size || text[i] == '\n') return {};
        ++i;
        break;
      case '.':
        if (depth == 0 && (directiveAt(text, i - 1, ".entry") || directiveAt(text, i - 1, ".func"))) {
          functionItem = true;
        } else if (depth == 0 && directiveAt(text, i - 1, ".section")) {
          sectionItem = true;
        }
        break;
      case '=':
        if (depth == 0) initializer = true;
        break;
      case ';':
        if (depth == 0) functionItem = sectionItem = initializer = false;
        break;
      case '{':
        if (depth == 0 && (functionItem != sectionItem) && !initializer) {
          (functionItem ? inBody : inSection) = true;
          open.begin = static_cast<std::uint32_t>(i);
          open.beginPoint = pointOf(i);
        }
        ++depth;
        break;
      case '}':
        if (--depth < 0) return {};
        if (depth == 0) {
          if (inBody || inSection) {
            open.end = static_cast<std::uint32_t>(i - 1);
            open.endPoint = pointOf(i - 1);
            (inBody ? found.bodies : found.sections).push_back(open);
          }
          inBody = inSection = functionItem = sectionItem = initializer = false;
        }
        break;
      default:
        break;
    }
  }
  if (depth != 0) return {};
  return found;
}

bool functionBodiesMatch(const SyntaxTree& tree, std::span<const BodyInterior> bodies) {
  TSNode root = tree.root();
  if (!tree.isComplete() || ts_node_is_null(root) || ts_node_has_error(root)) return false;
  const SyntaxKinds& kinds = syntaxKinds();
  std::size_t next = 0;
  bool matches = true;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      TSNode item = ts_tree_cursor_current_node(&cursor);
      if (ts_node_symbol(item) != kinds.functionDefinition) continue;
      TSNode body = ts_node_child_by_field_id(item, kinds.fields.body);
      matches = !ts_node_is_null(body) && next < bodies.size() && ts_node_start_byte(body) + 1 == bodies[next].begin &&
                ts_node_end_byte(body) == bodies[next].end + 1;
      ++next;
    } while (matches && ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return matches && next == bodies.size();
}

}  // namespace ptx

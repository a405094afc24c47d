// SyntaxDiagnostics implementation: the tree walk (ERROR and MISSING nodes, unknown
// directives, impossible opcodes) and the entry points. The checks that read the text rather
// than the tree are in SyntaxTextChecks.cpp.
//
// The tree walk is iterative (a TSTreeCursor), so 20,000 nested blocks cost no stack. It
// descends only into nodes that contain an error and into statement containers (the module,
// function definitions, blocks), never into every node of a large file.
#include "syntax/SyntaxDiagnostics.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cctype>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "isa/InstructionFacts.h"
#include "isa/IsaReference.h"
#include "syntax/SyntaxCollector.h"
#include "syntax/SyntaxKinds.h"
#include "syntax/TreeChildren.h"
#include "support/ParallelFor.h"

namespace ptx {
namespace {

using namespace syntaxcheck;

// Whether `word` is a dotted keyword PTX defines (a directive, type or state space); used to
// tell "unknown directive" from "known keyword in the wrong place" and to suggest spellings.
bool isKnownDotKeyword(std::string_view word) {
  return findDirective(word) != nullptr || findType(word) != nullptr ||
         findStateSpace(word) != nullptr || infoOf(modifierNamed(word)).vectorWidth != 0;
}

std::string toLower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

// Where an error sits, phrased for a message ("in address", "at module level").
std::string_view contextPhrase(const std::vector<TSNode>& ancestors) {
  for (TSNode current : ancestors) {
    std::string_view type = ts_node_type(current);
    if (type == "ERROR") continue;
    if (type == "source_file") return "at module level";
    if (type == "block") return "in block";
    if (type == "instruction") return "in instruction";
    if (type == "call_instruction") return "in call";
    if (type == "address") return "in address";
    if (type == "vector_operand") return "in vector operand";
    if (type == "parameter_list") return "in parameter list";
    if (type == "parameter") return "in parameter";
    if (type == "variable_declaration") return "in declaration";
    if (type == "declarator") return "in declarator";
    if (type == "initializer_list") return "in initializer";
    if (type == "function_definition" || type == "function_declaration") return "in function header";
    if (type == "section_directive" || type == "data_line") return "in debug section";
    if (type == "call_returns" || type == "call_arguments") return "in call";
    if (type == "attribute_clause") return "in .attribute";
    if (type == "parenthesized_expression" || type == "binary_expression" ||
        type == "unary_expression" || type == "conditional_expression") {
      return "in constant expression";
    }
  }
  return "here";
}

// What a MISSING node stood for, phrased as "after instruction" or "to close address".
std::string missingPhrase(std::string_view missing, TSNode parent) {
  std::string_view parentType = ts_node_is_null(parent) ? "" : ts_node_type(parent);
  if (parentType == "ERROR") parentType = "";
  if (missing == ";") {
    if (parentType == "instruction" || parentType == "call_instruction") return "after instruction";
    if (parentType == "variable_declaration") return "after declaration";
    return "to end the statement";
  }
  if (missing == "}") {
    if (parentType == "block") return "to close block";
    if (parentType == "vector_operand") return "to close vector operand";
    if (parentType == "initializer_list") return "to close initializer";
    if (parentType == "section_directive") return "to close section";
    return "to close the open '{'";
  }
  if (missing == "]") {
    if (parentType == "address") return "to close address";
    if (parentType == "array_dimension") return "to close array dimension";
    return "to close the open '['";
  }
  if (missing == ")") {
    if (parentType == "parameter_list") return "to close parameter list";
    if (parentType == "call_arguments" || parentType == "call_returns") return "to close call list";
    return "to close parentheses";
  }
  if (missing == ">") return "to close register count";
  return "";
}

bool isClosingBracket(std::string_view token) {
  return token == "}" || token == "]" || token == ")" || token == ">";
}

char openingFor(std::string_view closing) {
  if (closing == "}") return '{';
  if (closing == "]") return '[';
  if (closing == ")") return '(';
  return '<';
}

// The first non-extra leaf of `node`, or `node` itself when it has no children.
TSNode firstLeaf(TSNode node) {
  TSTreeCursor cursor = ts_tree_cursor_new(node);
  TSNode leaf = node;
  while (ts_tree_cursor_goto_first_child(&cursor)) {
    // Skip comments that recovery swept into the error.
    while (ts_node_is_extra(ts_tree_cursor_current_node(&cursor)) &&
           ts_tree_cursor_goto_next_sibling(&cursor)) {
    }
    leaf = ts_tree_cursor_current_node(&cursor);
  }
  ts_tree_cursor_delete(&cursor);
  return leaf;
}

// Bytes that make up one word-like token (names, numbers, dotted modifiers) for the purpose
// of quoting "the next token" in a message.
bool isWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c == '%' || c == '.';
}

// The end of the token that starts at the first non-blank byte at or after `offset`,
// skipping comments; `offset` itself at end of file.
std::uint32_t endOfNextToken(std::string_view text, std::uint32_t offset) {
  std::size_t i = offset;
  while (i < text.size()) {
    if (isSpace(text[i])) {
      ++i;
    } else if (text.compare(i, 2, "//") == 0) {
      auto newline = text.find('\n', i);
      i = newline == std::string_view::npos ? text.size() : newline;
    } else if (text.compare(i, 2, "/*") == 0) {
      auto close = text.find("*/", i + 2);
      i = close == std::string_view::npos ? text.size() : close + 2;
    } else {
      break;
    }
  }
  if (i >= text.size()) return offset;
  std::size_t end = i + 1;
  if (isWordChar(text[i])) {
    while (end < text.size() && isWordChar(text[end])) ++end;
  }
  return static_cast<std::uint32_t>(end);
}

// The start of the first token at or after `offset` (skipping blanks and comments).
std::uint32_t startOfNextToken(std::string_view text, std::uint32_t offset) {
  std::uint32_t end = endOfNextToken(text, offset);
  if (end == offset) return offset;
  std::uint32_t start = end - 1;
  while (start > offset && isWordChar(text[start - 1]) && isWordChar(text[end - 1])) --start;
  return start;
}

bool looksLikeOpcode(std::string_view token) {
  return !token.empty() && token[0] >= 'a' && token[0] <= 'z';
}

void reportError(Collector& out, TSNode error, const std::vector<TSNode>& ancestors) {
  std::string_view text = out.text();
  ByteRange whole = rangeOf(error);
  if (insideNonAscii(out, whole)) return;
  std::string_view errorText = nodeText(text, error);

  // An unterminated block comment or string swallows the rest of the file into one error.
  if (errorText.starts_with("/*") && errorText.find("*/") == std::string_view::npos) {
    out.report("SYN001", {whole.begin, whole.begin + 2},
               "unterminated block comment: '/*' has no matching '*/'");
    out.cutAfter(whole.begin);
    return;
  }
  TSNode leaf = firstLeaf(error);
  ByteRange range = rangeOf(leaf);
  if (range.end <= range.begin) range = {whole.begin, std::max(whole.begin + 1, whole.end)};
  std::string_view token = nodeText(text, leaf);
  if (token.empty()) token = errorText;
  // Keep the primary range on one line: editors draw it, and huge errors are unreadable.
  auto lineEnd = text.find('\n', range.begin);
  if (lineEnd != std::string_view::npos && lineEnd < range.end) {
    range.end = std::max(range.begin + 1, static_cast<std::uint32_t>(lineEnd));
  }

  // An unterminated string: a quote on the error's first line without a partner.
  std::string_view firstLine = errorText.substr(0, errorText.find('\n'));
  if (auto quoteAt = firstLine.find('"'); quoteAt != std::string_view::npos &&
                                         firstLine.find('"', quoteAt + 1) == std::string_view::npos) {
    auto at = whole.begin + static_cast<std::uint32_t>(quoteAt);
    auto quotedEnd = static_cast<std::uint32_t>(whole.begin + firstLine.size());
    out.report("SYN001", {at, std::max(at + 1, quotedEnd)},
               "unterminated string literal: missing closing '\"' on this line");
    return;
  }

  std::string_view context = contextPhrase(ancestors);
  TSNode parent = ancestors.empty() ? TSNode{} : ancestors.front();
  std::string_view parentType = ts_node_is_null(parent) ? "" : ts_node_type(parent);
  // A trailing comma: the real complaint is the bracket that follows it.
  if (token == ",") {
    std::uint32_t nextStart = startOfNextToken(text, range.end);
    std::uint32_t nextEnd = endOfNextToken(text, range.end);
    std::string_view next = text.substr(nextStart, nextEnd - nextStart);
    if (next == ")" || next == "}" || next == "]") {
      out.report("SYN001", {range.begin, nextEnd},
                 "trailing ',' before " + quote(next) + " " + std::string(context) +
                     ": another item must follow the comma");
      return;
    }
  }
  // A statement that starts on a new line right where an operand list could go on: the
  // previous instruction lacks its ';'.
  if (parentType == "instruction" && looksLikeOpcode(token)) {
    std::uint32_t previousEnd = previousTokenEnd(text, range.begin);
    if (text.substr(previousEnd, range.begin - previousEnd).find('\n') != std::string_view::npos) {
      out.report("SYN002", {previousEnd, range.end}, "expected ';' after instruction");
      return;
    }
  }
  std::string message = "unexpected " + quote(token) + " " + std::string(context);
  if (parentType == "address" && token.starts_with("-")) {
    message += "; a negative address offset is written '+-N', as in [%rd1+-4]";
  } else if (!token.empty() && (token[0] == 'u') && range.begin > 0 &&
             text[range.begin - 1] >= '0' && text[range.begin - 1] <= '9') {
    message += "; the unsigned suffix of an integer literal is an uppercase 'U'";
  } else if (token.starts_with(".") && !isKnownDotKeyword(token) &&
             isKnownDotKeyword(toLower(token))) {
    message += "; PTX keywords are lowercase: did you mean '" + toLower(token) + "'?";
  } else if (token == ";" && parentType == "block") {
    message += "; an empty statement is not allowed";
  } else if (token == "0" && range.end < text.size() &&
             (text[range.end] == 'f' || text[range.end] == 'F' || text[range.end] == 'd' ||
              text[range.end] == 'D')) {
    message += "; a hex float is '0f' with exactly 8 hex digits or '0d' with exactly 16";
  } else if (context == "at module level" && looksLikeOpcode(token)) {
    message += "; instructions belong inside a function body (did a '}' close it early?)";
  }
  out.report("SYN001", range, std::move(message));
}

void reportMissing(Collector& out, TSNode missing, const std::vector<TSNode>& ancestors) {
  std::string_view text = out.text();
  std::string_view type = ts_node_type(missing);
  bool named = ts_node_is_named(missing);
  std::uint32_t at = ts_node_start_byte(missing);
  TSNode parent = ancestors.empty() ? TSNode{} : ancestors.front();
  std::string_view context = contextPhrase(ancestors);

  // Cover the gap up to the next token: that token is where the problem shows, and it is
  // where ptxas reports it ("Parsing error near 'st'" on the following line). At the end of
  // the file, cover the rest of it.
  std::uint32_t nextEnd = endOfNextToken(text, at);
  ByteRange range{at, nextEnd == at ? static_cast<std::uint32_t>(text.size()) : nextEnd};

  // Recovery sometimes invents a keyword (a MISSING '.entry' that would turn a stray
  // instruction into a function). The useful message is about the token that is there.
  if (!named && type.starts_with(".") && nextEnd != at) {
    std::uint32_t nextStart = startOfNextToken(text, at);
    std::string_view next = text.substr(nextStart, nextEnd - nextStart);
    std::string message = "unexpected " + quote(next) + " " + std::string(context);
    if (context == "at module level" && looksLikeOpcode(next)) {
      message += "; instructions belong inside a function body (did a '}' close it early?)";
    }
    out.report("SYN001", {nextStart, nextEnd}, std::move(message));
    return;
  }

  // A trailing comma: an item was expected between it and the closing bracket.
  if (named) {
    std::uint32_t previousEnd = previousTokenEnd(text, at);
    std::uint32_t nextStart = startOfNextToken(text, at);
    std::string_view next = text.substr(nextStart, nextEnd - nextStart);
    if (previousEnd > 0 && text[previousEnd - 1] == ',' &&
        (next == ")" || next == "}" || next == "]")) {
      out.report("SYN001", {previousEnd - 1, nextEnd},
                 "trailing ',' before " + quote(next) + " " + std::string(context) +
                     ": another item must follow the comma");
      return;
    }
  }

  std::string message = "expected ";
  if (named) {
    std::string readable(type);
    std::replace(readable.begin(), readable.end(), '_', ' ');
    message += readable;
    if (context != "here") message += " " + std::string(context);
  } else {
    message += "'" + std::string(type) + "'";
    std::string phrase = missingPhrase(type, parent);
    if (!phrase.empty()) message += " " + phrase;
  }

  std::vector<RelatedInformation> related;
  if (!named && isClosingBracket(type) && !ts_node_is_null(parent)) {
    char opening = openingFor(type);
    std::uint32_t begin = ts_node_start_byte(parent);
    std::string_view parentText = nodeText(text, parent);
    auto pos = parentText.find(opening);
    if (pos != std::string_view::npos) {
      auto openAt = begin + static_cast<std::uint32_t>(pos);
      related.push_back({{openAt, openAt + 1}, std::string("'") + opening + "' opened here"});
    }
  }
  out.report("SYN002", range, std::move(message), std::move(related));
}

void reportUnknownDirective(Collector& out, TSNode node) {
  TSNode name = ts_node_child_by_field_name(node, "name", 4);
  if (ts_node_is_null(name)) return;
  std::string_view spelled = nodeText(out.text(), name);
  std::string message;
  if (isKnownDotKeyword(spelled)) {
    message = quote(spelled) + " cannot start a statement here";
  } else if (isKnownDotKeyword(toLower(spelled))) {
    message = "unknown directive " + quote(spelled) +
              "; PTX keywords are lowercase: did you mean '" + toLower(spelled) + "'?";
  } else {
    message = "unknown directive " + quote(spelled);
  }
  out.report("SYN004", rangeOf(name), std::move(message));
}

void checkOpcode(Collector& out, TSNode instruction, const SyntaxKinds& kinds) {
  TSNode opcode = ts_node_child_by_field_id(instruction, kinds.fields.opcode);
  if (ts_node_is_null(opcode) || ts_node_is_missing(opcode)) return;
  std::string_view spelled = nodeText(out.text(), opcode);
  if (!spelled.empty() && ((spelled[0] >= 'a' && spelled[0] <= 'z') ||
                           (spelled[0] >= 'A' && spelled[0] <= 'Z'))) {
    return;
  }
  std::string message = "expected an instruction opcode, found " + quote(spelled);
  TSNode guard = ts_node_child_by_field_id(instruction, kinds.fields.guard);
  if (!ts_node_is_null(guard)) {
    TSNode predicate = ts_node_child_by_field_id(guard, kinds.fields.predicate);
    if (!ts_node_is_null(predicate)) {
      message += "; the guard '@' took " + quote(nodeText(out.text(), predicate)) +
                 " as its predicate";
    }
  }
  out.report("SYN008", rangeOf(opcode), std::move(message));
}

// Walks the tree below `start`, which sits at `startDepth` (0: the root; 1: a module item).
void walk(Collector& out, TSNode start, std::uint32_t startDepth, const SyntaxKinds& kinds, ByteRange focus) {
  // Depth first, in source order, on an explicit stack: a node's children are pushed in
  // reverse. `path` holds the visible ancestors of the node at hand below `start`, outermost
  // first, for the messages' context (tree-sitter 0.20's ts_node_parent is unreliable for
  // zero-width MISSING nodes, so ancestry comes from the walk).
  struct Pending {
    TSNode node;
    std::uint32_t depth;
  };
  std::vector<Pending> stack{{start, startDepth}};
  std::vector<TSNode> path;
  auto ancestors = [&] { return std::vector<TSNode>(path.rbegin(), path.rend()); };
  // One mistake at module level (a '}' that closes a body early) derails every item after
  // it until recovery finds its feet; only the first item of such a run is reported.
  // Clean items that often leak out of a broken function (its `.reg` lines) do not end
  // the run; a clean function definition or module directive does.
  bool previousTopLevelDamaged = false;
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    path.resize(depth - startDepth);
    TSSymbol symbol = ts_node_symbol(node);
    bool descend = false;
    bool damaged = ts_node_is_missing(node) || symbol == kinds.error || ts_node_has_error(node);
    bool suppressed = false;
    // Recovery marks skipped-token ERROR nodes as extras; only comments are skipped here.
    if (depth == 1 && (symbol == kinds.error || !ts_node_is_extra(node))) {
      suppressed = damaged && previousTopLevelDamaged;
      if (damaged) {
        previousTopLevelDamaged = true;
      } else if (symbol != kinds.variableDeclaration) {
        previousTopLevelDamaged = false;
      }
    }
    bool outsideFocus = depth == 1 && (ts_node_end_byte(node) <= focus.begin || ts_node_start_byte(node) >= focus.end);
    if (suppressed || outsideFocus) {
      // Skip the whole item.
    } else if (ts_node_is_missing(node)) {
      reportMissing(out, node, ancestors());
    } else if (symbol == kinds.error) {
      reportError(out, node, ancestors());
    } else {
      if (symbol == kinds.instruction) {
        checkOpcode(out, node, kinds);
      } else if (symbol == kinds.unknownDirective) {
        reportUnknownDirective(out, node);
      }
      descend = ts_node_has_error(node) || kinds.containsStatements(symbol);
    }
    if (!descend) continue;
    path.push_back(node);
    std::size_t first = stack.size();
    forEachVisibleChildWhile(node, [&](TSNode child, TSFieldId) {
      stack.push_back({child, depth + 1});
      return true;
    });
    std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(first), stack.end());
  }
}

}  // namespace

bool looksBinary(std::string_view text) {
  return std::memchr(text.data(), '\0', text.size()) != nullptr;
}

Diagnostic binaryFileDiagnostic(std::string_view text) {
  Diagnostic diagnostic;
  diagnostic.rule = "SYN006";
  diagnostic.severity = Severity::Error;
  diagnostic.category = Category::Syntax;
  auto nul = static_cast<std::uint32_t>(text.find('\0'));
  diagnostic.range = {nul, nul + 1};
  diagnostic.message = "binary file: it contains NUL bytes, so it is not PTX text (ptxas rejects it); not analyzed";
  return diagnostic;
}

std::vector<Diagnostic> collectSyntaxDiagnostics(std::string_view text, const SyntaxTree& tree,
                                                 const SyntaxDiagnosticOptions& options) {
  return collectSyntaxDiagnostics(text, tree, options, ByteRange{0, static_cast<std::uint32_t>(text.size())});
}

std::vector<Diagnostic> collectSyntaxDiagnostics(std::string_view text, const SyntaxTree& tree,
                                                 const SyntaxDiagnosticOptions& options, ByteRange focus) {
  Collector out(text, options);
  reportNonAscii(out, focus);
  if (!tree.isComplete()) {
    if (tree.refusedForExtrasRun()) {
      // Information: the comments are no defect of the file, only past what we can parse.
      out.report("SYN007", {0, 0},
                 "not parsed: more than " + std::to_string(kMaxExtrasInARow) +
                     " comment lines in a row, which the tree-sitter 0.20 runtime cannot hold; no syntax results",
                 {}, Severity::Information);
    } else {
      out.report("SYN007", {0, 0},
                 "parsing stopped before the end of the file (time limit or cancellation); no syntax results");
    }
    return out.finish();
  }
  walk(out, tree.root(), 0, syntaxKinds(), focus);
  reportPreprocessorLines(out, tree, syntaxKinds(), focus);
  if (ts_node_has_error(tree.root())) reportUnclosedBody(out, focus);
  return out.finish();
}

std::vector<Diagnostic> collectSyntaxDiagnosticsParallel(std::string_view text, const SyntaxTree& tree,
                                                         const SyntaxDiagnosticOptions& options, unsigned threads) {
  TSNode root = tree.root();
  if (threads <= 1 || !tree.isComplete() || ts_node_has_error(root)) return collectSyntaxDiagnostics(text, tree, options);
  // Without errors the walk keeps no state from one module item to the next, so groups of
  // items are walked separately, and the text's lines are searched for preprocessor lines
  // in ranges; each list is found in the order the one-pass collection finds it, and fed to
  // one collector in that order (non-ASCII bytes, the walk, preprocessor lines), which then
  // applies the limit and sorts exactly as collectSyntaxDiagnostics does.
  const SyntaxKinds& kinds = syntaxKinds();
  const ByteRange everything{0, static_cast<std::uint32_t>(text.size())};
  std::vector<TSNode> items;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      items.push_back(ts_tree_cursor_current_node(&cursor));
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  std::size_t groups = std::min<std::size_t>(std::size_t{threads} * 4, items.size());
  std::size_t lineRanges = std::size_t{threads} * 4;
  std::vector<std::uint32_t> lineBounds{0};
  for (std::size_t r = 1; r < lineRanges; ++r) {
    std::size_t at = text.find('\n', text.size() * r / lineRanges);
    if (at == std::string_view::npos) break;
    if (at + 1 > lineBounds.back()) lineBounds.push_back(static_cast<std::uint32_t>(at + 1));
  }
  lineBounds.push_back(static_cast<std::uint32_t>(text.size()));
  std::size_t lineTasks = lineBounds.size() - 1;
  SyntaxDiagnosticOptions unlimited;
  unlimited.maxDiagnostics = SIZE_MAX;
  std::vector<Collector> found;
  found.reserve(groups + lineTasks);
  for (std::size_t i = 0; i < groups + lineTasks; ++i) found.emplace_back(text, unlimited);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t task = next++; task < groups + lineTasks; task = next++) {
      if (task < groups) {
        std::size_t first = items.size() * task / groups;
        std::size_t last = items.size() * (task + 1) / groups;
        for (std::size_t i = first; i < last; ++i) walk(found[task], items[i], 1, kinds, everything);
      } else {
        std::size_t r = task - groups;
        reportPreprocessorLines(found[task], tree, kinds, ByteRange{lineBounds[r], lineBounds[r + 1]});
      }
    }
  };
  runOnThreads(groups + lineTasks, threads, work);
  Collector out(text, options);
  reportNonAscii(out, everything);
  for (Collector& list : found) {
    for (Diagnostic& diagnostic : list.found()) out.add(std::move(diagnostic));
  }
  return out.finish();
}

}  // namespace ptx

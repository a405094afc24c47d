// Formatter implementation: one tree walk that lists the tokens with a layout rule for the gap
// before each (FormatWalker.cpp), then one pass that renders every gap (here).
//
// The rule for a gap is decided by the outermost node that starts at the token after it (an
// operand after `,`, a statement at a line start), or by the token itself (`,`, `;`, `]`), or
// by the token before it (`[`, the opcode). Rendering then applies what only the original
// text can tell: blank lines, whether a comment sat on its own line, and whether two tokens
// would run together without a space. Every gap depends only on its neighbours, so
// formatting twice gives the same text as formatting once.
#include "format/Formatter.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "format/FormatTokens.h"

namespace ptx {
namespace {

using namespace format;

bool isWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c == '%';
}

bool isOperatorChar(char c) { return std::strchr("<>=!&|+-*/%^~?:", c) != nullptr && c != '\0'; }

// Whether `before` and `after`, written with nothing between them, could read as other tokens
// (`%r1` `%r2` → `%r1%r2`, `<` `<` → `<<`, `1` `.5` → `1.5`), by the grammar or by ptxas.
bool mustSeparate(std::string_view before, std::string_view after) {
  if (before.empty() || after.empty()) return false;
  char last = before.back();
  char first = after.front();
  bool beforeIsNumber = before.front() >= '0' && before.front() <= '9';
  if (first == '.') return beforeIsNumber || last == '.';
  if ((isWordChar(last) || last == '.') && isWordChar(first)) return true;
  // `+-4` is how nvcc writes a negative address offset; other operator pairs may fuse.
  if (isOperatorChar(last) && isOperatorChar(first)) return !(last == '+' && first == '-');
  return false;
}

// Renders gaps from the token list, the options and the original whitespace.
class Renderer {
 public:
  Renderer(std::string_view text, const std::vector<Token>& tokens, const FormatOptions& options,
           std::uint32_t textStart)
      : text_(text), tokens_(tokens), options_(options), textStart_(textStart) {
    // The line ending of the first line decides: CRLF files stay CRLF.
    auto newline = text.find('\n');
    newline_ = (newline != std::string_view::npos && newline > 0 && text[newline - 1] == '\r')
                   ? "\r\n"
                   : "\n";
    indentUnit_.assign(options_.useTabs ? 1 : options_.indentWidth, options_.useTabs ? '\t' : ' ');
    operandSeparator_ = options_.operandSeparator == OperandSeparator::SpaceTab ? " \t" : " ";
  }

  // Gap i lies before token i; gap tokens.size() follows the last token.
  ByteRange gapRange(std::size_t i) const {
    std::uint32_t begin = i == 0 ? textStart_ : tokens_[i - 1].end;
    std::uint32_t end =
        i == tokens_.size() ? static_cast<std::uint32_t>(text_.size()) : tokens_[i].begin;
    return {begin, std::max(begin, end)};
  }

  std::string_view original(std::size_t i) const {
    ByteRange range = gapRange(i);
    return text_.substr(range.begin, range.end - range.begin);
  }

  void render(std::size_t i, std::string& out) const {
    std::string_view old = original(i);
    if (i == tokens_.size()) {
      if (tokens_.empty()) return;
      if (tokens_.back().flags & kVerbatim) {
        out += old;
      } else {
        appendNewlines(1, i, out);
      }
      return;
    }
    const Token& token = tokens_[i];
    const Token* before = i == 0 ? nullptr : &tokens_[i - 1];
    std::size_t firstNewline = old.find('\n');
    bool hadNewline = firstNewline != std::string_view::npos;
    Gap gap = token.gap;
    std::uint16_t depth = token.depth;
    if (gap == Gap::Comment) {
      gap = (hadNewline || before == nullptr) ? Gap::LineStart : Gap::Space;
    } else if (before != nullptr && (before->flags & kEndsLine) && gap != Gap::LineStart) {
      gap = Gap::LineStart;
      depth = token.continuationDepth;
    } else if (before != nullptr && (before->flags & kBlockComment) && !hadNewline) {
      // Code after a /* */ comment on the same line stays on that line.
      gap = Gap::Space;
    }
    std::size_t lines =
        std::clamp<std::size_t>(static_cast<std::size_t>(std::count(old.begin(), old.end(), '\n')),
                                1, std::size_t{options_.maxBlankLines} + 1);

    // A broken statement keeps the whitespace on its own lines: its indentation and what
    // trails it. Only the blank lines around it and the next line's indentation change.
    bool brokenBefore = before != nullptr && (before->flags & kVerbatim);
    bool brokenAfter = (token.flags & kVerbatim) != 0;
    if (brokenBefore || brokenAfter) {
      bool nextStartsLine = brokenAfter || gap == Gap::LineStart;
      if (!hadNewline || before == nullptr || (brokenBefore && brokenAfter) || !nextStartsLine) {
        out += old;
        return;
      }
      if (brokenBefore) {
        out += old.substr(0, firstNewline + 1);
        for (std::size_t n = 1; n < lines; ++n) out += newline_;
        appendIndent(depth, out);
      } else {
        appendNewlines(lines, i, out);
        out += old.substr(old.rfind('\n') + 1);
      }
      return;
    }

    if (before == nullptr) {
      // The first token: no leading blank lines, only indentation.
      if (gap == Gap::LineStart) appendIndent(depth, out);
      return;
    }
    switch (gap) {
      case Gap::None:
        if (!old.empty() && mustSeparate(tokenText(i - 1), tokenText(i))) out += ' ';
        return;
      case Gap::Space:
        out += ' ';
        return;
      case Gap::Comma:
        if (options_.spaceAfterComma) {
          out += ' ';
        } else if (!old.empty() && mustSeparate(tokenText(i - 1), tokenText(i))) {
          out += ' ';
        }
        return;
      case Gap::OperandSep:
        out += operandSeparator_;
        return;
      case Gap::Preserve:
        if (!old.empty()) out += ' ';
        return;
      case Gap::LineStart:
      case Gap::Comment:
        appendNewlines(lines, i, out);
        appendIndent(depth, out);
        return;
    }
  }

 private:
  std::string_view text_;
  const std::vector<Token>& tokens_;
  const FormatOptions& options_;
  std::uint32_t textStart_;
  std::string_view newline_;
  std::string indentUnit_;
  std::string_view operandSeparator_;

  std::string_view tokenText(std::size_t i) const {
    return text_.substr(tokens_[i].begin, tokens_[i].end - tokens_[i].begin);
  }

  void appendNewlines(std::size_t count, std::size_t i, std::string& out) const {
    for (std::size_t n = 0; n < count; ++n) {
      // A `//` comment in a CRLF file already ends with its '\r'.
      bool afterCarriageReturn = n == 0 && i > 0 && tokens_[i - 1].end > tokens_[i - 1].begin &&
                                 text_[tokens_[i - 1].end - 1] == '\r';
      out += afterCarriageReturn ? std::string_view("\n") : newline_;
    }
  }

  void appendIndent(std::uint16_t depth, std::string& out) const {
    for (std::uint16_t level = 0; level < depth; ++level) out += indentUnit_;
  }
};

struct Layout {
  std::vector<Token> tokens;
  std::uint32_t textStart = 0;  // After a UTF-8 byte-order mark, which is kept.
};

std::optional<Layout> layOut(std::string_view text, const SyntaxTree& tree) {
  if (!tree.isComplete() || ts_node_is_null(tree.root())) return std::nullopt;
  // Erroneous statements are kept as they are; when the parse could not even find the
  // file's statements (the root itself is an error: an unclosed body with a stray brace
  // inside, say), its pieces are no statements to lay out, and the whole text is kept.
  if (std::string_view(ts_node_type(tree.root())) == "ERROR") return std::nullopt;
  Layout layout;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") layout.textStart = 3;
  layout.tokens = format::walkTokens(text, tree.root());
  return layout;
}

bool overlaps(std::uint32_t begin, std::uint32_t end, ByteRange range) {
  if (range.begin == range.end) return begin <= range.begin && range.begin <= end;
  return begin < range.end && range.begin < end;
}

}  // namespace

std::string formatText(std::string_view text, const SyntaxTree& tree,
                       const FormatOptions& options) {
  std::optional<Layout> layout = layOut(text, tree);
  if (!layout) return std::string(text);
  Renderer renderer(text, layout->tokens, options, layout->textStart);
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  out += text.substr(0, layout->textStart);
  const std::vector<Token>& tokens = layout->tokens;
  for (std::size_t i = 0; i <= tokens.size(); ++i) {
    renderer.render(i, out);
    if (i < tokens.size()) out += text.substr(tokens[i].begin, tokens[i].end - tokens[i].begin);
  }
  return out;
}

std::vector<TextEdit> formatEdits(std::string_view text, const SyntaxTree& tree,
                                  const FormatOptions& options, std::optional<ByteRange> range) {
  std::vector<TextEdit> edits;
  std::optional<Layout> layout = layOut(text, tree);
  if (!layout) return edits;
  const std::vector<Token>& tokens = layout->tokens;
  Renderer renderer(text, tokens, options, layout->textStart);
  auto inRange = [&](std::size_t i) {
    return !range || overlaps(tokens[i].unitBegin, tokens[i].unitEnd, *range);
  };
  std::string rendered;
  for (std::size_t i = 0; i <= tokens.size(); ++i) {
    bool ownerInRange = i < tokens.size() ? inRange(i) : (!tokens.empty() && inRange(i - 1));
    bool previousInRange = i > 0 && inRange(i - 1);
    if (!ownerInRange && !previousInRange) continue;
    ByteRange gap = renderer.gapRange(i);
    std::string_view old = renderer.original(i);
    rendered.clear();
    renderer.render(i, rendered);
    if (rendered == old) continue;
    std::uint32_t trailing = 0;
    while (trailing < old.size() && (old[trailing] == ' ' || old[trailing] == '\t')) ++trailing;
    bool trailsLine =
        trailing > 0 && trailing < old.size() && (old[trailing] == '\n' || old[trailing] == '\r');
    if (!ownerInRange) {
      // The statement before is in range, the one after is not: only the trailing
      // whitespace on the formatted statement's last line goes.
      if (trailsLine) edits.push_back({{gap.begin, gap.begin + trailing}, ""});
      continue;
    }
    std::string_view replacement = rendered;
    if (!previousInRange && trailsLine) {
      // The line before the range keeps its trailing whitespace.
      old.remove_prefix(trailing);
      gap.begin += trailing;
    }
    // Only the part that differs: a re-indented line is one small edit.
    std::size_t prefix = 0;
    while (prefix < old.size() && prefix < replacement.size() &&
           old[prefix] == replacement[prefix]) {
      ++prefix;
    }
    std::size_t suffix = 0;
    while (suffix < old.size() - prefix && suffix < replacement.size() - prefix &&
           old[old.size() - 1 - suffix] == replacement[replacement.size() - 1 - suffix]) {
      ++suffix;
    }
    if (old.size() == replacement.size() && prefix == old.size()) continue;
    edits.push_back(
        {{gap.begin + static_cast<std::uint32_t>(prefix),
          gap.end - static_cast<std::uint32_t>(suffix)},
         std::string(replacement.substr(prefix, replacement.size() - prefix - suffix))});
  }
  return edits;
}

}  // namespace ptx

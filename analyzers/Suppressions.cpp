// LNT001 unused-suppression
//
// What it does: reports a `// ptxlint: disable...` comment that silences no diagnostic, or
// that names a rule ptxlint does not have.
//
// Why is this bad: a suppression outlives the problem it was written for; left in place, it
// would silently hide the next, unrelated finding of that rule on the line.
//
// Example:
//     // ptxlint: disable-next-line=ISA010
//     ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];   // already in the preferred order
//
// Use instead: delete the comment.
//
// References: ruff's RUF100 (unused noqa) is the model.
#include "Suppressions.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "Registry.h"

namespace ptx {
namespace {

constexpr std::string_view kMarker = "ptxlint:";

enum class SuppressionKind { NextLine, Disable, Enable };

struct Suppression {
  SuppressionKind kind;
  ByteRange comment;       // The directive, for LNT001.
  ByteRange covers;        // Where diagnostics are silenced.
  std::string rule;        // A code ("ISA010"), or "all".
  bool used = false;
  bool known = true;
};

bool isSpaceOrTab(char c) { return c == ' ' || c == '\t'; }

// The next "ptxlint:" at or after `from`, or npos. It is found by its ':' (memchr), which PTX
// uses only after labels and inside `::` qualifiers: string_view::find stops at every 'p', and
// PTX is full of them (%p, .param), which made scanning a 10 MB text on each keystroke cost
// milliseconds.
std::size_t findMarker(std::string_view text, std::size_t from) {
  constexpr std::size_t kColon = kMarker.size() - 1;
  for (std::size_t at = from + kColon; at < text.size();) {
    const void* colon = std::memchr(text.data() + at, ':', text.size() - at);
    if (colon == nullptr) break;
    std::size_t end = static_cast<std::size_t>(static_cast<const char*>(colon) - text.data());
    if (text.compare(end - kColon, kMarker.size(), kMarker) == 0) return end - kColon;
    at = end + 1;
  }
  return std::string_view::npos;
}

std::size_t lineEnd(std::string_view text, std::size_t from) {
  std::size_t end = text.find('\n', from);
  return end == std::string_view::npos ? text.size() : end;
}

// Parses every directive; `disable` ranges are closed by the matching `enable` later.
std::vector<Suppression> parseSuppressions(std::string_view text) {
  std::vector<Suppression> found;
  for (std::size_t at = findMarker(text, 0); at != std::string_view::npos; at = findMarker(text, at + 1)) {
    // Only in a `//` comment: the marker must follow `//` and spaces on its line.
    std::size_t lineStart = text.rfind('\n', at);
    lineStart = lineStart == std::string_view::npos ? 0 : lineStart + 1;
    std::size_t slashes = text.rfind("//", at);
    if (slashes == std::string_view::npos || slashes < lineStart) continue;
    bool onlySpaces = true;
    for (std::size_t i = slashes + 2; i < at; ++i) onlySpaces = onlySpaces && isSpaceOrTab(text[i]);
    if (!onlySpaces) continue;
    std::size_t end = lineEnd(text, at);
    std::string_view directive = text.substr(at + kMarker.size(), end - at - kMarker.size());
    while (!directive.empty() && isSpaceOrTab(directive.front())) directive.remove_prefix(1);
    while (!directive.empty() && (directive.back() == '\r' || isSpaceOrTab(directive.back()))) directive.remove_suffix(1);
    SuppressionKind kind = SuppressionKind::NextLine;
    std::string_view rest;
    for (auto [prefix, value] : {std::pair{std::string_view("disable-next-line="), SuppressionKind::NextLine},
                                 std::pair{std::string_view("disable="), SuppressionKind::Disable},
                                 std::pair{std::string_view("enable="), SuppressionKind::Enable}}) {
      if (directive.starts_with(prefix)) {
        kind = value;
        rest = directive.substr(prefix.size());
        break;
      }
    }
    if (rest.empty()) continue;
    auto directiveEnd = static_cast<std::uint32_t>(directive.data() + directive.size() - text.data());
    ByteRange comment{static_cast<std::uint32_t>(slashes), directiveEnd};
    ByteRange covers{static_cast<std::uint32_t>(end), static_cast<std::uint32_t>(text.size())};
    if (kind == SuppressionKind::NextLine) {
      std::size_t nextStart = std::min(end + 1, text.size());
      covers = {static_cast<std::uint32_t>(nextStart), static_cast<std::uint32_t>(lineEnd(text, nextStart))};
    }
    // Rules up to the first space: `disable=A,B  -- why` keeps its explanation.
    std::string_view list = rest.substr(0, std::min(rest.find_first_of(" \t\r"), rest.size()));
    while (!list.empty()) {
      std::string_view item = list.substr(0, std::min(list.find(','), list.size()));
      list.remove_prefix(std::min(item.size() + 1, list.size()));
      if (item.empty()) continue;
      Suppression suppression{kind, comment, covers, std::string(item), false, true};
      if (item != "all") {
        const RuleMeta* rule = findRule(item);
        suppression.known = rule != nullptr;
        if (rule != nullptr) suppression.rule = std::string(rule->code);
      }
      found.push_back(std::move(suppression));
    }
  }
  // Close each `disable` at the first later `enable` of the same rule.
  for (Suppression& disable : found) {
    if (disable.kind != SuppressionKind::Disable) continue;
    for (Suppression& enable : found) {
      if (enable.kind == SuppressionKind::Enable && enable.rule == disable.rule &&
          enable.comment.begin > disable.comment.begin) {
        disable.covers.end = enable.comment.begin;
        enable.used = true;  // An `enable` is part of its `disable`, never unused by itself.
        break;
      }
    }
  }
  return found;
}

}  // namespace

std::vector<Diagnostic> applySuppressions(std::string_view text, std::vector<Diagnostic> diagnostics, bool rulesRan) {
  if (findMarker(text, 0) == std::string_view::npos) return diagnostics;
  std::vector<Suppression> suppressions = parseSuppressions(text);
  if (suppressions.empty()) return diagnostics;
  std::erase_if(diagnostics, [&](const Diagnostic& diagnostic) {
    if (diagnostic.rule == "LNT001") return false;
    bool silenced = false;
    for (Suppression& suppression : suppressions) {
      if (suppression.kind == SuppressionKind::Enable || !suppression.known) continue;
      if (suppression.rule != "all" && suppression.rule != diagnostic.rule) continue;
      if (diagnostic.range.begin < suppression.covers.begin || diagnostic.range.begin > suppression.covers.end) continue;
      suppression.used = true;
      silenced = true;
    }
    return silenced;
  });
  for (const Suppression& suppression : suppressions) {
    if (suppression.used) continue;
    // Silencing nothing proves nothing when the rules did not run; a name that is no rule is
    // wrong either way.
    if (!rulesRan && suppression.known) continue;
    Diagnostic unused;
    unused.rule = "LNT001";
    unused.severity = Severity::Warning;
    unused.category = Category::Lint;
    unused.range = suppression.comment;
    unused.message = suppression.known ? "suppression of " + suppression.rule + " silences nothing; remove it"
                                       : "suppression names '" + suppression.rule + "', which is not a rule";
    if (suppression.kind == SuppressionKind::Enable) {
      unused.message = "'enable=" + suppression.rule + "' has no earlier 'disable=" + suppression.rule + "'";
    }
    Fix remove;
    remove.title = "Remove the suppression comment";
    remove.edits.push_back({suppression.comment, ""});
    remove.isPreferred = true;
    unused.fixes.push_back(std::move(remove));
    diagnostics.push_back(std::move(unused));
  }
  std::stable_sort(diagnostics.begin(), diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) { return a.range.begin < b.range.begin; });
  return diagnostics;
}

}  // namespace ptx

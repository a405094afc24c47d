// SyntaxCollector (internal to core/syntax): the list syntax diagnostics are collected into
// (with the limit, the cut after an unterminated comment and the final order), the text
// helpers messages share, and the checks that read the text rather than the tree
// (SyntaxTextChecks.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "syntax/SyntaxDiagnostics.h"
#include "syntax/SyntaxKinds.h"

namespace ptx::syntaxcheck {

inline bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

inline std::string_view nodeText(std::string_view text, TSNode node) {
  std::uint32_t begin = std::min<std::uint32_t>(ts_node_start_byte(node), static_cast<std::uint32_t>(text.size()));
  std::uint32_t end = std::min<std::uint32_t>(ts_node_end_byte(node), static_cast<std::uint32_t>(text.size()));
  return text.substr(begin, end - begin);
}

inline ByteRange rangeOf(TSNode node) { return {ts_node_start_byte(node), ts_node_end_byte(node)}; }

// The end of the last non-blank byte before `offset`.
inline std::uint32_t previousTokenEnd(std::string_view text, std::uint32_t offset) {
  std::uint32_t end = offset;
  while (end > 0 && isSpace(text[end - 1])) --end;
  return end;
}

// `text` quoted for a message: first line only, at most 40 characters.
std::string quote(std::string_view token);

class Collector {
 public:
  Collector(std::string_view text, const SyntaxDiagnosticOptions& options)
      : text_(text), options_(options) {}

  bool full() const { return diagnostics_.size() >= options_.maxDiagnostics; }

  void report(std::string rule, ByteRange range, std::string message,
              std::vector<RelatedInformation> related = {}, Severity severity = Severity::Error) {
    if (full()) {
      ++suppressed_;
      return;
    }
    Diagnostic diagnostic;
    diagnostic.rule = std::move(rule);
    diagnostic.severity = severity;
    diagnostic.category = Category::Syntax;
    diagnostic.range = range;
    diagnostic.message = std::move(message);
    diagnostic.related = std::move(related);
    diagnostics_.push_back(std::move(diagnostic));
  }

  // A diagnostic another collector found (the parallel walk's), counted against the limit
  // like one reported here.
  void add(Diagnostic diagnostic) {
    if (full()) {
      ++suppressed_;
      return;
    }
    diagnostics_.push_back(std::move(diagnostic));
  }

  // Everything found, in the order found (for a collector without a limit).
  std::vector<Diagnostic>& found() { return diagnostics_; }

  // Removes the diagnostics found so far that `drop` selects (cascades of a finding that
  // replaces them).
  template <typename Drop>
  void dropIf(Drop drop) {
    std::erase_if(diagnostics_, drop);
  }

  // Everything after an unterminated block comment is inside that comment as far as ptxas
  // is concerned; diagnostics past it are cascades.
  void cutAfter(std::uint32_t offset) { cutoff_ = std::min(cutoff_, offset); }

  std::vector<Diagnostic> finish() {
    std::erase_if(diagnostics_, [&](const Diagnostic& d) { return d.range.begin > cutoff_; });
    std::stable_sort(diagnostics_.begin(), diagnostics_.end(),
                     [](const Diagnostic& a, const Diagnostic& b) {
                       return a.range.begin < b.range.begin;
                     });
    if (suppressed_ > 0 && !diagnostics_.empty()) {
      diagnostics_.back().message +=
          " (" + std::to_string(suppressed_) + " further syntax errors not shown)";
    }
    return std::move(diagnostics_);
  }

  std::string_view text() const { return text_; }

  // Byte ranges of non-ASCII runs, so that ERROR nodes they caused are not reported twice.
  std::vector<ByteRange> nonAsciiRuns;

 private:
  std::string_view text_;
  const SyntaxDiagnosticOptions& options_;
  std::vector<Diagnostic> diagnostics_;
  std::size_t suppressed_ = 0;
  std::uint32_t cutoff_ = UINT32_MAX;
};

// Reports non-ASCII bytes (SYN003) and records their runs.
void reportNonAscii(Collector& out, ByteRange focus);
// Whether `range` starts inside a non-ASCII run reportNonAscii found.
bool insideNonAscii(const Collector& out, ByteRange range);
// Reports preprocessor lines other than line markers (SYN005) within `focus`.
void reportPreprocessorLines(Collector& out, const SyntaxTree& tree, const SyntaxKinds& kinds, ByteRange focus);
// Reports a file that ends inside a function body (SYN002), replacing the parse's cascades.
void reportUnclosedBody(Collector& out, ByteRange focus);

}  // namespace ptx::syntaxcheck

// FileReport: byte ranges → 1-based line/character positions and a source excerpt.
#include "FileReport.h"

#include <algorithm>

#include "text/LineIndex.h"

namespace ptx::cli {
namespace {

constexpr std::size_t kExcerptWindow = 160;

SourcePosition positionOf(const LineIndex& index, std::uint32_t offset) {
  LineColumn at = index.characterColumn(offset);
  return {at.line + 1, at.column + 1};
}

// Printable form of one excerpt byte: control and non-ASCII bytes become '?', so that the
// caret line stays aligned on any terminal.
char printable(char c) {
  auto byte = static_cast<unsigned char>(c);
  if (c == '\t') return ' ';
  return byte < 0x20 || byte >= 0x7F ? '?' : c;
}

}  // namespace

FileReport buildFileReport(std::string path, std::string_view text,
                           const std::vector<Diagnostic>& diagnostics) {
  FileReport report;
  report.path = std::move(path);
  if (diagnostics.empty()) return report;
  LineIndex index(text);
  report.diagnostics.reserve(diagnostics.size());
  for (const Diagnostic& diagnostic : diagnostics) {
    ReportedDiagnostic out;
    out.rule = diagnostic.rule;
    out.severity = diagnostic.severity;
    out.category = diagnostic.category;
    out.message = diagnostic.message;
    out.start = positionOf(index, diagnostic.range.begin);
    out.end = positionOf(index, std::max(diagnostic.range.begin, diagnostic.range.end));
    for (const RelatedInformation& related : diagnostic.related) {
      out.related.push_back({positionOf(index, related.range.begin),
                             positionOf(index, related.range.end), related.message});
    }
    // Excerpt: bytes of the start line, windowed around the start.
    LineColumn byteAt = index.byteColumn(diagnostic.range.begin);
    std::string_view line = index.lineText(byteAt.line);
    std::size_t windowStart = 0;
    if (byteAt.column > kExcerptWindow / 2) windowStart = byteAt.column - kExcerptWindow / 2;
    std::string_view window = line.substr(std::min(windowStart, line.size()), kExcerptWindow);
    out.excerpt.reserve(window.size() + 6);
    if (windowStart > 0) out.excerpt += "...";
    for (char c : window) out.excerpt += printable(c);
    if (windowStart + window.size() < line.size()) out.excerpt += "...";
    std::size_t caret = (windowStart > 0 ? 3 : 0) + (byteAt.column - std::min<std::size_t>(windowStart, byteAt.column));
    out.excerptColumn = static_cast<std::uint32_t>(caret + 1);
    std::size_t width = 1;
    if (diagnostic.range.end > diagnostic.range.begin) {
      std::size_t lineEnd = index.lineStart(byteAt.line) + line.size();
      std::size_t end = std::min<std::size_t>(diagnostic.range.end, lineEnd);
      if (end > diagnostic.range.begin) width = end - diagnostic.range.begin;
    }
    out.excerptWidth = static_cast<std::uint32_t>(
        std::clamp<std::size_t>(width, 1, out.excerpt.size() + 1 > caret ? out.excerpt.size() + 1 - caret : 1));
    report.diagnostics.push_back(std::move(out));
  }
  return report;
}

}  // namespace ptx::cli

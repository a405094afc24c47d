// TextEmitter: compiler-style diagnostics for terminals and CI logs.
#include <string>

#include "emit/Emitter.h"

namespace ptx::cli {

RunSummary summarize(std::span<const FileReport> reports) {
  RunSummary summary;
  for (const FileReport& report : reports) {
    if (!report.ioError.empty()) {
      ++summary.ioErrors;
      continue;
    }
    ++summary.filesChecked;
    if (!report.diagnostics.empty()) ++summary.filesWithDiagnostics;
    for (const ReportedDiagnostic& diagnostic : report.diagnostics) {
      switch (diagnostic.severity) {
        case Severity::Error: ++summary.errors; break;
        case Severity::Warning: ++summary.warnings; break;
        case Severity::Information: ++summary.information; break;
        case Severity::Hint: ++summary.hints; break;
      }
    }
  }
  return summary;
}

namespace {

std::string plural(std::size_t count, std::string_view noun) {
  std::string text = std::to_string(count) + " " + std::string(noun);
  if (count != 1) text += "s";
  return text;
}

}  // namespace

void emitText(std::ostream& out, std::span<const FileReport> reports, const RunSummary& summary) {
  for (const FileReport& report : reports) {
    if (!report.ioError.empty()) {
      out << report.path << ": error: " << report.ioError << "\n";
      continue;
    }
    for (const ReportedDiagnostic& d : report.diagnostics) {
      out << report.path << ':' << d.start.line << ':' << d.start.column << ": "
          << toString(d.severity) << ": " << d.message << " [" << d.rule << "]\n";
      std::string gutter = std::to_string(d.start.line);
      out << ' ' << gutter << " | " << d.excerpt << '\n';
      out << ' ' << std::string(gutter.size(), ' ') << " | "
          << std::string(d.excerptColumn - 1, ' ') << std::string(d.excerptWidth, '^') << '\n';
      for (const ReportedRelated& related : d.related) {
        out << report.path << ':' << related.start.line << ':' << related.start.column
            << ": note: " << related.message << '\n';
      }
    }
  }
  if (summary.diagnostics() == 0 && summary.ioErrors == 0) {
    out << "All checks passed: " << plural(summary.filesChecked, "file") << " checked.\n";
    return;
  }
  out << "Found " << plural(summary.diagnostics(), "diagnostic") << " ("
      << plural(summary.errors, "error") << ", " << plural(summary.warnings, "warning") << ") in "
      << plural(summary.filesWithDiagnostics, "file") << "; "
      << plural(summary.filesChecked, "file") << " checked";
  if (summary.ioErrors > 0) out << ", " << plural(summary.ioErrors, "file") << " unreadable";
  out << ".\n";
}

}  // namespace ptx::cli

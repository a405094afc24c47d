// TextEmitter: compiler-style diagnostics for terminals and CI logs.
#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "Registry.h"
#include <cstdio>

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

constexpr std::string_view kReset = "\x1b[0m";
constexpr std::string_view kBold = "\x1b[1m";
constexpr std::string_view kRed = "\x1b[1;31m";
constexpr std::string_view kYellow = "\x1b[1;33m";
constexpr std::string_view kCyan = "\x1b[1;36m";

std::string_view severityColor(Severity severity) {
  switch (severity) {
    case Severity::Error: return kRed;
    case Severity::Warning: return kYellow;
    default: return kCyan;
  }
}

}  // namespace

void emitText(std::ostream& out, std::span<const FileReport> reports, const RunSummary& summary,
              const TextOptions& options) {
  auto paint = [&](std::string_view color, const std::string& text) {
    return options.color ? std::string(color) + text + std::string(kReset) : text;
  };
  for (const FileReport& report : reports) {
    if (!report.ioError.empty()) continue;
    for (const ReportedDiagnostic& d : report.diagnostics) {
      out << paint(kBold, report.path + ':' + std::to_string(d.start.line) + ':' + std::to_string(d.start.column) + ":")
          << ' ' << paint(severityColor(d.severity), std::string(toString(d.severity)) + ":") << ' ' << d.message
          << " [" << d.rule << "]\n";
      std::string gutter = std::to_string(d.start.line);
      out << ' ' << gutter << " | " << d.excerpt << '\n';
      out << ' ' << std::string(gutter.size(), ' ') << " | " << std::string(d.excerptColumn - 1, ' ')
          << paint(severityColor(d.severity), std::string(d.excerptWidth, '^')) << '\n';
      for (const ReportedRelated& related : d.related) {
        out << paint(kBold, report.path + ':' + std::to_string(related.start.line) + ':' +
                                std::to_string(related.start.column) + ":")
            << " note: " << related.message << '\n';
      }
    }
  }
  if (!options.summary) return;
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

void emitRegisterReport(std::ostream& out, std::span<const FileReport> reports, bool color) {
  auto bold = [&](const std::string& text) { return color ? std::string(kBold) + text + std::string(kReset) : text; };
  for (const FileReport& report : reports) {
    if (report.ptxasAsked && !report.ptxasError.empty()) out << report.path << ": ptxas -v not run: " << report.ptxasError << "\n";
    for (const ReportedFunction& f : report.functions) {
      out << bold(report.path + ":" + std::to_string(f.line) + ": " + f.kind + " " + f.name) << "\n";
      out << "    " << f.summary << "\n";
      out << "    peak: " << f.maxLive << " live 32-bit registers at line " << f.peakLine;
      if (!f.liveAtPeak.empty()) {
        out << " (";
        for (std::size_t i = 0; i < f.liveAtPeak.size() && i < 8; ++i) out << (i ? ", " : "") << f.liveAtPeak[i];
        if (f.liveAtPeak.size() > 8) out << ", ... " << f.liveAtPeak.size() - 8 << " more";
        out << ")";
      }
      out << "\n    budget: " << f.budget << " (" << f.budgetReason << ")";
      if (f.spills > 0) out << "; " << f.spills << " registers spill to local memory";
      out << "\n";
      if (f.hasPtxas) {
        long difference = static_cast<long>(f.registers) - static_cast<long>(f.ptxasRegisters);
        out << "    ptxas -v: " << f.ptxasRegisters << " registers (estimate " << f.registers << ", "
            << (difference >= 0 ? "+" : "") << difference << ")";
        if (f.ptxasSpillStores + f.ptxasSpillLoads > 0) {
          out << "; " << f.ptxasSpillStores << " bytes spill stores, " << f.ptxasSpillLoads << " bytes spill loads";
        }
        out << "\n";
      } else if (report.ptxasAsked && report.ptxasError.empty()) {
        out << "    ptxas -v: no figure for this function\n";
      }
      if (f.hasOccupancy) {
        char line[200];
        std::snprintf(line, sizeof line, "    occupancy on %s: %u blocks/SM, %u of %u warps (%.0f%%) at %u threads/block%s; limited by %s",
                      f.target.c_str(), f.blocksPerSm, f.activeWarpsPerSm, f.maxWarpsPerSm, 100.0 * f.occupancy,
                      f.threadsPerBlock, f.threadsAssumed ? " (assumed)" : "", f.limitedBy.c_str());
        out << line << "\n";
        if (f.fewerRegistersForMoreBlocks > 0) {
          out << "    at " << f.fewerRegistersForMoreBlocks << " registers " << f.blocksWithFewerRegisters
              << " blocks would fit\n";
        }
      }
      out << "    confidence: " << f.confidence << "\n";
      if (!f.plot.empty()) out << "    plot: " << f.plot << "\n";
    }
  }
}

void emitStatistics(std::ostream& out, std::span<const FileReport> reports, bool color) {
  struct Count {
    std::size_t count = 0;
    Severity severity = Severity::Hint;
  };
  std::map<std::string, Count> counts;
  for (const FileReport& report : reports) {
    for (const ReportedDiagnostic& d : report.diagnostics) {
      Count& count = counts[d.rule];
      if (count.count == 0 || d.severity < count.severity) count.severity = d.severity;
      ++count.count;
    }
  }
  std::vector<std::pair<std::string, Count>> rows(counts.begin(), counts.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.second.count > b.second.count; });
  out << (color ? std::string(kBold) : "") << "Statistics (" << plural(rows.size(), "rule") << "):"
      << (color ? kReset : "") << '\n';
  std::size_t width = 1;
  for (const auto& [rule, count] : rows) width = std::max(width, std::to_string(count.count).size());
  for (const auto& [rule, count] : rows) {
    std::string number = std::to_string(count.count);
    const RuleMeta* meta = findRule(rule);
    std::string code = rule;
    if (code.size() < 7) code += std::string(7 - code.size(), ' ');
    out << "  " << std::string(width - number.size(), ' ') << number << "  " << code << ' '
        << (meta != nullptr ? std::string(meta->name) : std::string()) << "  [" << toString(count.severity)
        << "]\n";
  }
}

}  // namespace ptx::cli

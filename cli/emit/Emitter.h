// Emitters: print finished file reports in one output format.
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "FileReport.h"

namespace ptx::cli {

struct RunSummary {
  std::size_t filesChecked = 0;
  std::size_t filesWithDiagnostics = 0;
  std::size_t errors = 0;
  std::size_t warnings = 0;
  std::size_t information = 0;
  std::size_t hints = 0;
  std::size_t ioErrors = 0;

  std::size_t diagnostics() const { return errors + warnings + information + hints; }
};

RunSummary summarize(std::span<const FileReport> reports);

struct TextOptions {
  bool color = false;    // ANSI colours: red errors, yellow warnings, bold locations.
  bool summary = true;   // The closing "Found ..." / "All checks passed" line.
};

// "path:line:col: severity: message [RULE]", a source excerpt with carets, then a summary.
// Files that could not be read are left out (ptxlint reports them on stderr) but counted.
void emitText(std::ostream& out, std::span<const FileReport> reports, const RunSummary& summary,
              const TextOptions& options = {});

// `--report registers` in text: per file, one block per function with the estimate, the
// peak, the budget, the occupancy and the confidence.
void emitRegisterReport(std::ostream& out, std::span<const FileReport> reports, bool color = false);

// Per-rule counts, most frequent first (like ruff --statistics):
// "  COUNT  CODE    name  [severity]" lines under a header.
void emitStatistics(std::ostream& out, std::span<const FileReport> reports, bool color = false);

// The JSON contract documented in docs/json-format.md.
void emitJson(std::ostream& out, std::span<const FileReport> reports, const RunSummary& summary,
              std::string_view toolVersion);

// What a SARIF log carries beyond a FileReport, resolved while the file's text is at hand:
// positions in SARIF's convention (1-based lines, 1-based columns in UTF-16 code units, ends
// exclusive), the fixes, and the flagged line for fingerprints. One entry per diagnostic, in
// the report's order.
struct SarifRegion {
  std::uint32_t startLine = 1;
  std::uint32_t startColumn = 1;
  std::uint32_t endLine = 1;
  std::uint32_t endColumn = 1;
};

struct SarifReplacement {
  SarifRegion deleted;  // Empty (start == end) for an insertion.
  std::string insertedText;
};

struct SarifFix {
  std::string description;
  std::vector<SarifReplacement> replacements;
};

struct SarifDiagnosticDetails {
  SarifRegion region;
  std::vector<SarifRegion> related;  // Parallel to ReportedDiagnostic::related.
  std::vector<SarifFix> fixes;
  std::string lineText;  // The start line, trimmed of surrounding blanks.
};

struct SarifFileDetails {
  std::vector<SarifDiagnosticDetails> diagnostics;
};

SarifFileDetails buildSarifDetails(std::string_view text, const std::vector<Diagnostic>& diagnostics);

// A SARIF 2.1.0 log (docs/sarif.md): one run whose driver lists every registered rule.
// `details` is parallel to `reports`; where it is missing (or does not match a report), that
// file's results fall back to the report's character columns and carry no fixes. URIs are
// relative to `workingDirectory` (an absolute path; empty: the current directory).
void emitSarif(std::ostream& out, std::span<const FileReport> reports,
               std::span<const SarifFileDetails> details, const RunSummary& summary,
               std::string_view toolVersion, std::string_view workingDirectory = {});

}  // namespace ptx::cli

// Emitters: print finished file reports in one output format.
#pragma once

#include <ostream>
#include <span>
#include <string_view>

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

// "path:line:col: severity: message [RULE]", a source excerpt with carets, then a summary.
void emitText(std::ostream& out, std::span<const FileReport> reports, const RunSummary& summary);

// The JSON contract documented in docs/json-format.md.
void emitJson(std::ostream& out, std::span<const FileReport> reports, const RunSummary& summary,
              std::string_view toolVersion);

}  // namespace ptx::cli

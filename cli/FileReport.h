// FileReport: one file's diagnostics with positions resolved for output.
//
// Workers build reports in parallel (the text is only needed while building), and the
// emitters then print them in path order. Lines and columns are 1-based; columns count
// characters (Unicode code points); end positions are exclusive.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "diag/Diagnostic.h"

namespace ptx::cli {

struct SourcePosition {
  std::uint32_t line = 1;
  std::uint32_t column = 1;
};

struct ReportedRelated {
  SourcePosition start;
  SourcePosition end;
  std::string message;
};

struct ReportedDiagnostic {
  std::string rule;
  Severity severity = Severity::Error;
  Category category = Category::Syntax;
  std::string message;
  SourcePosition start;
  SourcePosition end;
  std::vector<ReportedRelated> related;
  // The source line of `start` (cut to a window around the column for very long lines) and
  // the 1-based character column of `start` within that excerpt.
  std::string excerpt;
  std::uint32_t excerptColumn = 1;
  std::uint32_t excerptWidth = 1;
};

struct FileReport {
  std::string path;
  std::string ioError;  // Non-empty when the file could not be read.
  std::vector<ReportedDiagnostic> diagnostics;
};

FileReport buildFileReport(std::string path, std::string_view text,
                           const std::vector<Diagnostic>& diagnostics);

}  // namespace ptx::cli

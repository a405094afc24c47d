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

// One function of `--report registers` (analyzers/registers/RegisterReport.h, resolved).
struct ReportedFunction {
  std::string name;
  std::string kind;                  // "entry" or "func".
  std::uint32_t line = 1;            // 1-based line of the name.
  std::uint32_t registers = 0;
  std::uint32_t rangeLow = 0;         // Where ptxas's figure is expected (EstimateRange.h).
  std::uint32_t rangeHigh = 0;
  std::uint32_t afterSetmaxnreg = 0;  // Registers after a setmaxnreg; 0 when it has none.
  std::uint32_t maxLive = 0;
  std::uint32_t spills = 0;          // 32-bit registers that did not fit the budget.
  std::uint32_t budget = 255;
  std::string budgetReason;
  std::uint32_t peakLine = 1;
  std::vector<std::string> liveAtPeak;
  std::string target;
  std::uint32_t threadsPerBlock = 0;
  bool threadsAssumed = true;
  std::uint32_t sharedBytes = 0;
  bool hasOccupancy = false;         // Kernels on a known target.
  std::uint32_t blocksPerSm = 0;
  std::uint32_t activeWarpsPerSm = 0;
  std::uint32_t maxWarpsPerSm = 0;
  double occupancy = 0;
  std::string limitedBy;
  std::uint32_t fewerRegistersForMoreBlocks = 0;
  std::uint32_t blocksWithFewerRegisters = 0;
  std::string confidence;
  std::string summary;               // "~ 72 registers (58-90) - 50% occupancy on sm_90".
  std::string plot;                  // The SVG written for it (--plot), if any.
  // --ptxas: what ptxas -v printed for this function (absent when ptxas did not run or did
  // not name it).
  bool hasPtxas = false;
  std::uint32_t ptxasRegisters = 0;
  std::uint32_t ptxasSpillStores = 0;  // Bytes.
  std::uint32_t ptxasSpillLoads = 0;
};

struct FileReport {
  std::string path;
  std::string ioError;  // Non-empty when the file could not be read.
  std::vector<ReportedDiagnostic> diagnostics;
  bool hasFunctions = false;  // --report registers was asked for.
  bool ptxasAsked = false;    // --ptxas was given.
  std::string ptxasError;     // Why ptxas gave no figures for this file; empty when it did.
  std::vector<ReportedFunction> functions;
};

FileReport buildFileReport(std::string path, std::string_view text,
                           const std::vector<Diagnostic>& diagnostics);

}  // namespace ptx::cli

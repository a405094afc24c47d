// RegisterReport: every function's register report with its plot, for the `ptxls/registerReport`
// request (the VS Code extension's register report view) — the estimate, the occupancy it
// allows, the instruction where the most registers are live and the SVG plot of the live
// registers along the function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "Lint.h"
#include "registers/RegisterReport.h"
#include "text/LineIndex.h"

namespace ptx::lsp {

struct FunctionRegisterView {
  registers::FunctionRegisterReport report;
  ByteRange peak;                       // The statement where the most registers are live.
  std::vector<std::string> liveAtPeak;  // The registers live there.
  std::string summary;                  // The code lens title.
  std::string svg;                      // The plot.
};

struct RegisterReportView {
  std::string target;  // The target occupancy is computed for; empty when no function has a report.
  std::vector<FunctionRegisterView> functions;  // In source order.
  std::optional<std::size_t> at;                // The function holding the offset asked about.
};

// The reports of `analysis` (none when the text did not parse to a complete tree). `lines`
// indexes `text`; `estimates` are estimateRegisters of this analysis; `targetOverride` is the
// target the settings choose over the module's `.target`; `offset`, when given, picks `at`
// (a function holds the offsets from its declaration to the end of its body, both ends
// included).
RegisterReportView registerReportView(std::string_view text, const LineIndex& lines, const LintResult& analysis,
                                      const std::vector<registers::RegisterEstimate>& estimates,
                                      const std::optional<std::string>& targetOverride,
                                      std::optional<std::uint32_t> offset);

}  // namespace ptx::lsp

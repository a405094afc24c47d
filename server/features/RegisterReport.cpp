// RegisterReport: the analyzers' register reports, each with its plot and the extent of its
// function.
#include "features/RegisterReport.h"

#include <algorithm>

#include "registers/RegisterPlot.h"

namespace ptx::lsp {

RegisterReportView registerReportView(std::string_view text, const LineIndex& lines, const LintResult& analysis,
                                      const std::vector<registers::RegisterEstimate>& estimates,
                                      const std::optional<std::string>& targetOverride,
                                      std::optional<std::uint32_t> offset) {
  RegisterReportView view;
  if (!analysis.tree.isComplete()) return view;
  const Module& module = analysis.module;
  for (registers::FunctionRegisterReport& report :
       registers::reportRegisters(text, module, estimates, targetOverride)) {
    view.target = report.target;
    const FunctionInfo& function = module.functions[report.estimate.function];
    ByteRange extent = module.symbols[function.symbol].declarationRange;
    if (function.bodyScope != kNoScope) extent.end = std::max(extent.end, module.scopes[function.bodyScope].range.end);
    if (offset && *offset >= extent.begin && *offset <= extent.end) view.at = view.functions.size();
    registers::PlotInput plot = registers::plotInputFor(text, lines, module, report);
    FunctionRegisterView entry;
    entry.peak = module.instructions[report.estimate.peakInstruction].statement;
    entry.summary = registers::summaryLine(report);
    entry.svg = registers::renderRegisterPlot(plot);
    entry.liveAtPeak = std::move(plot.liveAtPeak);
    entry.report = std::move(report);
    view.functions.push_back(std::move(entry));
  }
  return view;
}

}  // namespace ptx::lsp

// CodeLenses: one per function report, titled by its summary line.
#include "features/CodeLenses.h"

#include "registers/RegisterReport.h"

namespace ptx::lsp {

std::vector<CodeLens> codeLenses(std::string_view text, const LintResult& analysis,
                                 const std::vector<registers::RegisterEstimate>& estimates,
                                 const std::optional<std::string>& targetOverride) {
  std::vector<CodeLens> lenses;
  if (!analysis.tree.isComplete()) return lenses;
  for (const registers::FunctionRegisterReport& report :
       registers::reportRegisters(text, analysis.module, estimates, targetOverride)) {
    lenses.push_back({report.nameRange, registers::summaryLine(report), std::string(kShowRegisterReportCommand),
                      report.name});
  }
  return lenses;
}

}  // namespace ptx::lsp

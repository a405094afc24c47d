// CodeLenses: one per function report, titled by its summary line, and its verify lens.
#include "features/CodeLenses.h"

#include "registers/RegisterReport.h"

namespace ptx::lsp {

std::string verifyLensTitle(std::string_view function, std::uint32_t estimate, const PtxasLensState& ptxas) {
  if (ptxas.result == nullptr) return ptxas.running ? "ptxas -v: running\u2026" : "verify with ptxas";
  const oracle::PtxasResult& result = *ptxas.result;
  if (!result.error.empty()) return "ptxas -v: " + result.error;
  auto found = result.functions.find(function);
  if (found == result.functions.end()) return "ptxas -v: no figure for this function";
  std::uint32_t used = found->second.registers;
  std::string title = "ptxas -v: ";
  title += std::to_string(used);
  title += " registers (estimate ";
  title += std::to_string(estimate);
  title += ", ";
  if (estimate == used) {
    title += "exact";
  } else {
    title += estimate > used ? '+' : '-';
    title += std::to_string(estimate > used ? estimate - used : used - estimate);
  }
  title += ')';
  if (found->second.spillStores != 0 || found->second.spillLoads != 0) {
    title += " \u00b7 spills " + std::to_string(found->second.spillStores) + " B stored, " +
             std::to_string(found->second.spillLoads) + " B loaded";
  }
  return title;
}

std::vector<CodeLens> codeLenses(std::string_view text, const LintResult& analysis,
                                 const std::vector<registers::RegisterEstimate>& estimates,
                                 const std::optional<std::string>& targetOverride, const PtxasLensState& ptxas) {
  std::vector<CodeLens> lenses;
  if (!analysis.tree.isComplete()) return lenses;
  for (const registers::FunctionRegisterReport& report :
       registers::reportRegisters(text, analysis.module, estimates, targetOverride)) {
    lenses.push_back({report.nameRange, registers::summaryLine(report), std::string(kShowRegisterReportCommand),
                      report.name});
    // ptxas assembles only for a real GPU (sm_XX), not for a virtual compute_XX target.
    if (ptxas.offered && report.target.starts_with("sm_")) {
      lenses.push_back({report.nameRange, verifyLensTitle(report.name, report.estimate.registers, ptxas),
                        std::string(kVerifyRegistersCommand), report.name});
    }
  }
  return lenses;
}

}  // namespace ptx::lsp

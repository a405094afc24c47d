// LiveRegisterHints: the estimate's per-instruction live counts, placed at statement ends.
#include "features/LiveRegisterHints.h"

namespace ptx::lsp {

std::vector<LiveRegisterHint> liveRegisterHints(const LintResult& analysis,
                                                const std::vector<registers::RegisterEstimate>& estimates,
                                                ByteRange range) {
  std::vector<LiveRegisterHint> hints;
  if (!analysis.tree.isComplete()) return hints;
  const Module& module = analysis.module;
  for (const registers::RegisterEstimate& estimate : estimates) {
    const FunctionInfo& function = module.functions[estimate.function];
    for (std::uint32_t i = 0; i < estimate.liveUnits.size(); ++i) {
      const InstructionSite& site = module.instructions[function.firstInstruction + i];
      if (site.statement.end < range.begin || site.statement.end > range.end) continue;
      hints.push_back({site.statement.end, std::to_string(estimate.liveUnits[i]) + " live"});
    }
  }
  return hints;
}

}  // namespace ptx::lsp

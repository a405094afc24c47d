// RegisterReport: what ptxlint --report registers, the server's code lenses and the
// performance rules say about a function — the register estimate, the occupancy it allows on
// the module's target, and how far to trust it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flow/FunctionFlow.h"
#include "registers/EstimateRange.h"
#include "model/Module.h"
#include "registers/Occupancy.h"
#include "registers/RegisterPlot.h"
#include "registers/RegisterPressure.h"
#include "text/LineIndex.h"

namespace ptx::registers {

// The block size assumed for occupancy when a kernel declares none (.reqntid/.maxntid).
constexpr std::uint32_t kAssumedThreadsPerBlock = 256;

struct FunctionRegisterReport {
  RegisterEstimate estimate;
  // Where ptxas's figure is expected to fall (EstimateRange.h): estimate.registers scaled by
  // the calibrated ratios of its kind, at most the budget.
  EstimateRange range;
  RangeKind rangeKind = RangeKind::Straight;
  std::string name;
  bool isEntry = false;
  ByteRange nameRange;
  std::string target;                    // The target occupancy is computed for ("sm_90a").
  std::uint32_t threadsPerBlock = kAssumedThreadsPerBlock;
  bool threadsAssumed = true;            // No .reqntid/.maxntid: kAssumedThreadsPerBlock.
  std::uint32_t sharedBytes = 0;         // Static .shared bytes the function uses.
  std::optional<Occupancy> occupancy;    // Kernels on a known target only.
  std::string confidence;                // One sentence: how far to trust the figure, and why.
};

// The target occupancy is computed for: the override, else the module's first `sm_XY` or
// `compute_XY` of `.target` ("sm_90a, texmode_independent" → "sm_90a"); empty when none.
std::string reportTarget(const Module& module, const std::optional<std::string>& targetOverride = std::nullopt);

// `targetOverride`: the target to report for instead of the module's `.target`.
std::vector<FunctionRegisterReport> reportRegisters(std::string_view text, const Module& module,
                                                   flow::FlowCache& flows,
                                                   const std::optional<std::string>& targetOverride = std::nullopt);

// The same from estimates already at hand (estimateRegisters of this text and module).
std::vector<FunctionRegisterReport> reportRegisters(std::string_view text, const Module& module,
                                                   std::vector<RegisterEstimate> estimates,
                                                   const std::optional<std::string>& targetOverride = std::nullopt);

// "≈ 72 registers (58–90) · 50% occupancy on sm_90" (the code lens title; the interval is
// EstimateRange's; ASCII "~", "-" when `ascii`: "~ 72 registers (58-90) - 50% ...").
std::string summaryLine(const FunctionRegisterReport& report, bool ascii = false);

// The plot's input for one function: per instruction its line, source text and live count.
// `lines` indexes `text` (built once by the caller: a file has many functions).
PlotInput plotInputFor(std::string_view text, const LineIndex& lines, const Module& module,
                       const FunctionRegisterReport& report);

}  // namespace ptx::registers

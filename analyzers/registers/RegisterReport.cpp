// RegisterReport: estimate + occupancy + confidence per function (see RegisterReport.h).
#include "registers/RegisterReport.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "text/LineIndex.h"

namespace ptx::registers {
namespace {

std::uint64_t symbolBytes(const Symbol& symbol) {
  std::uint64_t size = flow::typeSizeInBytes(symbol.typeId).value_or(1);
  if (symbol.vectorWidth > 0) size *= symbol.vectorWidth;
  for (const std::optional<std::uint64_t>& dimension : symbol.dimensions) {
    if (!dimension) return 0;  // Unsized: dynamic shared memory, not known statically.
    size *= *dimension;
  }
  return size;
}

// Static shared memory a function can touch: `.shared` variables declared in its body and
// module-level ones it names.
std::uint32_t staticSharedBytes(const Module& module, const FunctionInfo& function) {
  if (function.bodyScope == kNoScope) return 0;
  ByteRange body = module.scopes[function.bodyScope].range;
  std::vector<bool> counted(module.symbols.size(), false);
  std::uint64_t total = 0;
  auto count = [&](SymbolId id) {
    if (id == kNoSymbol || id >= module.symbols.size() || counted[id]) return;
    const Symbol& symbol = module.symbols[id];
    if (symbol.spaceId != Modifier::Shared) return;
    counted[id] = true;
    std::uint64_t alignment = symbol.alignment.value_or(1);
    total = (total + alignment - 1) / alignment * alignment + symbolBytes(symbol);
  };
  for (const Reference& reference : module.references) {
    if (reference.range.begin >= body.begin && reference.range.end <= body.end) count(reference.target);
  }
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(total, 0xFFFFFFFFu));
}

// Features the model is known to follow poorly (measured on the corpus: bench/registers_bench).
std::string confidenceFor(const Module& module, const FunctionInfo& function,
                          const RegisterEstimate& estimate) {
  RangeKind kind = rangeKindOf(module, function, estimate);
  bool calls = kind == RangeKind::Calls;
  bool textures = kind == RangeKind::Textures;
  // How the estimate fares on each feature is measured by bench/registers_bench and
  // published in docs/registers.md; the figures are not repeated here, where they would age.
  std::string note = "accuracy against ptxas by feature: docs/registers.md";
  if (calls) return "low: calls follow the ABI, and ptxas may inline them; " + note;
  if (textures) return "low: ptxas issues texture fetches far ahead of their use; " + note;
  if (estimate.maxLiveUnits > 96) {
    return "medium: ptxas schedules large kernels for latency, which usually needs more registers than the PTX "
           "shows; " +
           note;
  }
  return "good: " + note;
}

}  // namespace

std::string reportTarget(const Module& module, const std::optional<std::string>& targetOverride) {
  if (targetOverride) return *targetOverride;
  for (const auto& [target, range] : module.header.targets) {
    if (target.starts_with("sm_") || target.starts_with("compute_")) return target;
  }
  return {};
}

std::vector<FunctionRegisterReport> reportRegisters(std::string_view text, const Module& module, flow::FlowCache& flows,
                                                    const std::optional<std::string>& targetOverride) {
  return reportRegisters(text, module, estimateRegisters(text, module, flows), targetOverride);
}

std::vector<FunctionRegisterReport> reportRegisters(std::string_view text, const Module& module,
                                                    std::vector<RegisterEstimate> estimates,
                                                    const std::optional<std::string>& targetOverride) {
  std::vector<FunctionRegisterReport> reports;
  std::string target = reportTarget(module, targetOverride);
  std::optional<SmLimits> limits = limitsForTarget(target);
  for (RegisterEstimate& estimate : estimates) {
    const FunctionInfo& function = module.functions[estimate.function];
    const Symbol& symbol = module.symbols[function.symbol];
    FunctionRegisterReport report;
    report.name = symbol.name;
    report.isEntry = symbol.isEntry;
    report.nameRange = symbol.nameRange;
    report.target = target;
    if (auto threads = declaredThreadsPerBlock(function)) {
      report.threadsPerBlock = static_cast<std::uint32_t>(std::min<std::uint64_t>(*threads, 1 << 20));
      report.threadsAssumed = false;
    }
    report.sharedBytes = staticSharedBytes(module, function);
    if (report.isEntry && limits) {
      OccupancyInput input;
      input.registersPerThread = std::max<std::uint32_t>(estimate.registers, 1);
      input.threadsPerBlock = report.threadsPerBlock;
      input.sharedBytesPerBlock = report.sharedBytes;
      report.occupancy = computeOccupancy(*limits, input);
    }
    report.confidence = confidenceFor(module, function, estimate);
    report.rangeKind = rangeKindOf(module, function, estimate);
    report.range = estimateRange(estimate.registers, report.rangeKind);
    // ptxas never reports more than the budget (it spills instead).
    std::uint32_t ceiling = std::max(estimate.budget, estimate.registers);
    report.range.high = std::min(report.range.high, ceiling);
    report.range.low = std::min(report.range.low, report.range.high);
    report.estimate = std::move(estimate);
    reports.push_back(std::move(report));
  }
  return reports;
}

std::string summaryLine(const FunctionRegisterReport& report, bool ascii) {
  std::string line = (ascii ? "~ " : "\u2248 ") + std::to_string(report.estimate.registers) + " registers (" +
                     std::to_string(report.range.low) + (ascii ? "-" : "\u2013") + std::to_string(report.range.high) +
                     ")";
  // A warp-specialized kernel: ptxas's figure is the launch allocation; setmaxnreg changes it.
  if (report.estimate.afterSetmaxnreg > 0) {
    line += " at launch, up to " + std::to_string(report.estimate.afterSetmaxnreg) + " after setmaxnreg";
  }
  if (report.estimate.spilledUnits > 0) line += " (" + std::to_string(report.estimate.spilledUnits) + " spilled)";
  if (report.occupancy) {
    char percent[16];
    std::snprintf(percent, sizeof percent, "%.0f%%", 100.0 * report.occupancy->fraction);
    line += std::string(ascii ? " - " : " \u00b7 ") + percent + " occupancy on " + report.target;
  }
  return line;
}

PlotInput plotInputFor(std::string_view text, const LineIndex& lines, const Module& module,
                       const FunctionRegisterReport& report) {
  const FunctionInfo& function = module.functions[report.estimate.function];
  PlotInput input;
  input.kernel = report.name;
  input.target = report.target;
  input.estimatedRegisters = report.estimate.registers;
  input.budget = report.estimate.budget;
  input.budgetReason = report.estimate.budgetReason;
  input.spilledUnits = report.estimate.spilledUnits;
  input.peakIndex = report.estimate.peakInstruction - function.firstInstruction;
  for (const flow::RegisterKey& key : report.estimate.liveAtPeak) {
    const Symbol& symbol = module.symbols[key.symbol];
    input.liveAtPeak.push_back(symbol.rangeCount > 0 ? symbol.name + std::to_string(key.index) : symbol.name);
  }
  if (report.occupancy) {
    char note[160];
    std::snprintf(note, sizeof note, "%.0f%% occupancy on %s at %u threads/block%s (limited by %s)",
                  100.0 * report.occupancy->fraction, report.target.c_str(), report.threadsPerBlock,
                  report.threadsAssumed ? ", assumed" : "", report.occupancy->limitedBy.c_str());
    input.occupancyNote = note;
  }
  for (std::uint32_t i = 0; i < function.instructionCount; ++i) {
    const InstructionSite& site = module.instructions[function.firstInstruction + i];
    PlotInstruction instruction;
    instruction.line = lines.byteColumn(site.statement.begin).line + 1;
    if (site.statement.begin <= site.statement.end && site.statement.end <= text.size()) {
      instruction.source = std::string(text.substr(site.statement.begin, site.statement.end - site.statement.begin));
    }
    std::replace(instruction.source.begin(), instruction.source.end(), '\n', ' ');
    instruction.liveUnits = i < report.estimate.liveUnits.size() ? report.estimate.liveUnits[i] : 0;
    instruction.inLoop = i < report.estimate.inLoop.size() && report.estimate.inLoop[i];
    input.instructions.push_back(std::move(instruction));
  }
  return input;
}

}  // namespace ptx::registers

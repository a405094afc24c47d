// JsonEmitter: the machine-readable contract (docs/json-format.md).
#include <nlohmann/json.hpp>

#include "emit/Emitter.h"

namespace ptx::cli {
namespace {

using nlohmann::json;

json positionFields(const SourcePosition& start, const SourcePosition& end) {
  return {{"line", start.line},
          {"column", start.column},
          {"end_line", end.line},
          {"end_column", end.column}};
}

}  // namespace

void emitJson(std::ostream& out, std::span<const FileReport> reports, const RunSummary& summary,
              std::string_view toolVersion) {
  json files = json::array();
  for (const FileReport& report : reports) {
    json file = {{"path", report.path}, {"diagnostics", json::array()}};
    if (!report.ioError.empty()) file["io_error"] = report.ioError;
    for (const ReportedDiagnostic& d : report.diagnostics) {
      json entry = {{"rule", d.rule},
                    {"category", toString(d.category)},
                    {"severity", toString(d.severity)},
                    {"message", d.message}};
      entry.update(positionFields(d.start, d.end));
      json related = json::array();
      for (const ReportedRelated& r : d.related) {
        json item = {{"message", r.message}};
        item.update(positionFields(r.start, r.end));
        related.push_back(std::move(item));
      }
      entry["related"] = std::move(related);
      file["diagnostics"].push_back(std::move(entry));
    }
    if (report.hasFunctions) {
      json functions = json::array();
      for (const ReportedFunction& f : report.functions) {
        json entry = {{"name", f.name},
                      {"kind", f.kind},
                      {"line", f.line},
                      {"registers", f.registers},
                      {"registers_range", {f.rangeLow, f.rangeHigh}},
                      {"registers_after_setmaxnreg", f.afterSetmaxnreg ? json(f.afterSetmaxnreg) : json(nullptr)},
                      {"max_live", f.maxLive},
                      {"spills", f.spills},
                      {"budget", f.budget},
                      {"budget_reason", f.budgetReason},
                      {"peak", {{"line", f.peakLine}, {"live", f.liveAtPeak}}},
                      {"confidence", f.confidence}};
        if (f.hasOccupancy) {
          entry["occupancy"] = {{"target", f.target},
                                {"threads_per_block", f.threadsPerBlock},
                                {"threads_assumed", f.threadsAssumed},
                                {"shared_bytes", f.sharedBytes},
                                {"blocks_per_sm", f.blocksPerSm},
                                {"active_warps_per_sm", f.activeWarpsPerSm},
                                {"max_warps_per_sm", f.maxWarpsPerSm},
                                {"fraction", f.occupancy},
                                {"limited_by", f.limitedBy}};
        } else {
          entry["occupancy"] = nullptr;
        }
        if (!f.plot.empty()) entry["plot"] = f.plot;
        if (report.ptxasAsked) {
          entry["ptxas"] = f.hasPtxas ? json{{"registers", f.ptxasRegisters},
                                             {"spill_stores", f.ptxasSpillStores},
                                             {"spill_loads", f.ptxasSpillLoads},
                                             {"difference", static_cast<long>(f.registers) - static_cast<long>(f.ptxasRegisters)}}
                                      : json(nullptr);
        }
        functions.push_back(std::move(entry));
      }
      file["functions"] = std::move(functions);
      if (report.ptxasAsked) file["ptxas_error"] = report.ptxasError.empty() ? json(nullptr) : json(report.ptxasError);
    }
    files.push_back(std::move(file));
  }
  json document = {
      {"tool", {{"name", "ptxlint"}, {"version", toolVersion}}},
      {"files", std::move(files)},
      {"summary",
       {{"files_checked", summary.filesChecked},
        {"files_with_diagnostics", summary.filesWithDiagnostics},
        {"diagnostics", summary.diagnostics()},
        {"errors", summary.errors},
        {"warnings", summary.warnings},
        {"information", summary.information},
        {"hints", summary.hints},
        {"io_errors", summary.ioErrors}}},
  };
  // Invalid UTF-8 in messages (quoted garbage is escaped already) must not abort output.
  out << document.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

}  // namespace ptx::cli

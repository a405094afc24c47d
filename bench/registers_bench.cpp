// registers_bench: the register estimate (analyzers/registers) against ptxas -v, first on the
// frozen validation set (corpus/registers-validation/manifest.json: CUDA written for it, on
// which no constant is tuned), then on the calibration corpus: every accepted, non-debug file
// with ground truth in ../shared/corpus (ptxas-verdicts.json and nvcc/ground-truth.json) and in
// our corpus/ (corpus/ptxas-registers.json, when present). For each it prints the error table
// per file family and per feature, the median and 90th percentile of the absolute relative
// error over entry functions, the coverage of the estimate's range (EstimateRange.h: the share
// of entries whose ptxas figure lies in it, and its mean width), and the worst cases; then the
// estimate's cost relative to a full lint of the largest corpus file. The validation set is
// the CUDA part (family = the source's stem) and the Triton part
// (corpus/registers-validation/triton/manifest.json, family "triton"). Asserts nothing.
//
// Usage: registers_bench [--corpus DIR] [--own DIR] [--validation DIR] [--worst N] [--csv FILE]
//                        [--cost-only] [--calibrate-range]
// (--calibrate-range reads the calibration set only and prints the range's ratio table for
// analyzers/registers/EstimateRange.cpp, by the rule stated there.)
// (--csv writes the calibration entries, and the validation entries to FILE with
// ".validation" before its extension.)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "Lint.h"
#include "flow/FunctionFlow.h"
#include "registers/EstimateRange.h"
#include "registers/RegisterPressure.h"
#include "registers/RegisterReport.h"
#include "syntax/SyntaxTree.h"

namespace fs = std::filesystem;
using namespace ptx;

namespace {

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Reads a .ptx, or a .ptx.xz through xz (the one compressed corpus file).
std::string readPtx(const fs::path& path) {
  if (fs::exists(path)) return readFile(path);
  fs::path compressed = path.string() + ".xz";
  if (!fs::exists(compressed)) return {};
  std::string command = "xz -dc '" + compressed.string() + "'";
  std::string out;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[65536];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
    ::pclose(pipe);
  }
  return out;
}

// Debug PTX (-G) is compiled without optimization; the estimate models optimized code.
bool isDebugPtx(std::string_view text) {
  return text.find("\t.section\t.debug_info") != std::string_view::npos ||
         text.find(".section .debug_info") != std::string_view::npos;
}

struct Sample {
  std::string family;
  std::string file;
  std::string function;
  double truth = 0;
  double estimate = 0;
  double maxLive = 0;
  std::string feature;  // What the report's confidence note singles out: calls, textures, large, plain.
  registers::RangeKind rangeKind = registers::RangeKind::Straight;
  double low = 0;   // The report's range (RegisterReport.h).
  double high = 0;
  double error() const { return std::abs(estimate - truth) / truth; }
  bool covered() const { return low <= truth && truth <= high; }
  double width() const { return (high - low) / std::max(estimate, 1.0); }
};

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  double rank = p * static_cast<double>(values.size() - 1);
  auto low = static_cast<std::size_t>(std::floor(rank));
  auto high = static_cast<std::size_t>(std::ceil(rank));
  return values[low] + (values[high] - values[low]) * (rank - static_cast<double>(low));
}

void estimateFile(const std::string& family, const std::string& name, const std::string& text,
                  const nlohmann::json& functions, std::vector<Sample>& samples) {
  // Triton's PTX carries line-table debug sections but is optimized code, compiled by ptxas
  // without -g (its manifest's ptxas_cmd).
  if (text.empty() || (family != "triton" && isDebugPtx(text))) return;
  SyntaxTree tree = parseSyntax(text);
  Module module = buildModule(text, tree);
  flow::FlowCache flows(text, module);
  // Through the report, so that the range measured is the one ptxlint and the server show.
  std::vector<registers::FunctionRegisterReport> reports =
      registers::reportRegisters(text, module, registers::estimateRegisters(text, module, flows));
  for (const registers::FunctionRegisterReport& report : reports) {
    const registers::RegisterEstimate& estimate = report.estimate;
    const FunctionInfo& function = module.functions[estimate.function];
    const Symbol& symbol = module.symbols[function.symbol];
    if (!symbol.isEntry) continue;
    auto it = functions.find(symbol.name);
    if (it == functions.end() || !it->contains("registers")) continue;
    double truth = (*it)["registers"].get<double>();
    if (truth <= 0) continue;
    bool calls = false;
    bool textures = false;
    for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
      const InstructionSite& site = module.instructions[i];
      std::string_view opcode = std::string_view(text).substr(site.opcode.begin, site.opcode.end - site.opcode.begin);
      calls = calls || site.isCall;
      textures = textures || opcode == "tex" || opcode == "tld4" || opcode == "suld";
    }
    std::string feature = calls ? "calls" : textures ? "textures" : estimate.maxLiveUnits > 96 ? "large" : "plain";
    samples.push_back({family, name, symbol.name, truth, static_cast<double>(estimate.registers),
                       static_cast<double>(estimate.maxLiveUnits), feature, report.rangeKind,
                       static_cast<double>(report.range.low), static_cast<double>(report.range.high)});
  }
}

// One row of a table: entries, median and p90 of the error, share within 10%.
void printRow(const std::string& name, const std::vector<double>& errors) {
  auto within = std::count_if(errors.begin(), errors.end(), [](double e) { return e <= 0.10; });
  std::printf("%-12s %8zu %9.1f%% %9.1f%% %9.1f%%\n", name.c_str(), errors.size(), 100 * percentile(errors, 0.5),
              100 * percentile(errors, 0.9),
              errors.empty() ? 0.0 : 100.0 * static_cast<double>(within) / static_cast<double>(errors.size()));
}

// The table of one set, per family and per feature.
void printTable(const std::vector<Sample>& samples) {
  std::map<std::string, std::vector<double>> byFamily;
  std::vector<double> all;
  for (const Sample& sample : samples) {
    byFamily[sample.family].push_back(sample.error());
    all.push_back(sample.error());
  }
  std::printf("%-12s %8s %10s %10s %10s\n", "family", "entries", "median", "p90", "within10%");
  for (const auto& [family, errors] : byFamily) printRow(family, errors);
  printRow("all", all);
  // By what the report's confidence note singles out (RegisterReport.cpp, confidenceFor).
  std::map<std::string, std::vector<double>> byFeature;
  for (const Sample& sample : samples) byFeature[sample.feature].push_back(sample.error());
  std::printf("\n%-12s %8s %10s %10s %10s\n", "feature", "entries", "median", "p90", "within10%");
  for (const auto& [feature, errors] : byFeature) printRow(feature, errors);
}

// The calibration set's goal line.
void printCalibrationGoals(const std::vector<Sample>& samples) {
  std::vector<double> all;
  for (const Sample& sample : samples) all.push_back(sample.error());
  std::printf("goal: median <= 10%%: %s, p90 <= 25%%: %s\n", percentile(all, 0.5) <= 0.10 ? "PASS" : "MISS",
              percentile(all, 0.9) <= 0.25 ? "PASS" : "MISS");
}

// The entries with the largest errors.
void printWorst(const std::vector<Sample>& samples, std::size_t worst) {
  std::vector<Sample> sorted = samples;
  std::sort(sorted.begin(), sorted.end(), [](const Sample& a, const Sample& b) { return a.error() > b.error(); });
  std::printf("\nworst %zu:\n", std::min(worst, sorted.size()));
  for (std::size_t i = 0; i < std::min(worst, sorted.size()); ++i) {
    const Sample& s = sorted[i];
    std::printf("  %5.0f%%  est %3.0f  ptxas %3.0f  %s  %s\n", 100 * s.error(), s.estimate, s.truth, s.file.c_str(),
                s.function.substr(0, 60).c_str());
  }
}

// The validation set's own lines: the kernels with >= 64 registers as a row, and the goals of
// issue 24 (>= 400 entries, a quarter of them with >= 64 registers; median <= 10% and p90 <=
// 25% over all, median <= 10% over the >= 64-register ones).
void printValidationGoals(const std::vector<Sample>& samples) {
  std::vector<double> all;
  std::vector<double> wide;
  for (const Sample& sample : samples) {
    all.push_back(sample.error());
    if (sample.truth >= 64) wide.push_back(sample.error());
  }
  printRow(">=64 regs", wide);
  bool sized = all.size() >= 400 && 4 * wide.size() >= all.size();
  std::printf("goal: set >= 400 entries, >= 25%% with >= 64 registers: %s (%zu, %.1f%%)\n", sized ? "PASS" : "FAIL",
              all.size(), all.empty() ? 0.0 : 100.0 * static_cast<double>(wide.size()) / static_cast<double>(all.size()));
  std::printf("goal: median <= 10%%: %s, p90 <= 25%%: %s, median on >= 64 registers <= 10%%: %s\n",
              percentile(all, 0.5) <= 0.10 ? "PASS" : "FAIL", percentile(all, 0.9) <= 0.25 ? "PASS" : "FAIL",
              !wide.empty() && percentile(wide, 0.5) <= 0.10 ? "PASS" : "FAIL");
}

// The range's coverage per family and over the set: the share of entries whose ptxas figure
// lies in [low, high], and the mean width (high - low) / estimate.
void printCoverageRow(const std::string& name, const std::vector<const Sample*>& rows) {
  std::size_t covered = 0;
  double width = 0;
  for (const Sample* sample : rows) {
    covered += sample->covered() ? 1 : 0;
    width += sample->width();
  }
  double n = std::max<double>(static_cast<double>(rows.size()), 1);
  std::printf("%-12s %8zu %9.1f%% %9.1f%%\n", name.c_str(), rows.size(), 100.0 * static_cast<double>(covered) / n,
              100.0 * width / n);
}

// Returns the coverage over all entries.
double printCoverage(const std::vector<Sample>& samples) {
  std::map<std::string, std::vector<const Sample*>> byFamily;
  std::map<std::string, std::vector<const Sample*>> byKind;
  std::vector<const Sample*> all;
  std::vector<const Sample*> cuda;  // The validation set's CUDA part: every family but triton.
  std::size_t covered = 0;
  for (const Sample& sample : samples) {
    byFamily[sample.family].push_back(&sample);
    if (sample.family != "triton") cuda.push_back(&sample);
    byKind[registers::rangeKindName(sample.rangeKind)].push_back(&sample);
    all.push_back(&sample);
    covered += sample.covered() ? 1 : 0;
  }
  std::printf("\n%-12s %8s %10s %10s\n", "range", "entries", "covered", "width");
  for (const auto& [family, rows] : byFamily) printCoverageRow(family, rows);
  if (byFamily.contains("triton") && !cuda.empty()) printCoverageRow("cuda", cuda);
  printCoverageRow("all", all);
  std::printf("\n%-12s %8s %10s %10s\n", "range kind", "entries", "covered", "width");
  for (const auto& [kind, rows] : byKind) printCoverageRow(kind, rows);
  return samples.empty() ? 0.0 : static_cast<double>(covered) / static_cast<double>(samples.size());
}

// --calibrate-range: the ratio table of EstimateRange.cpp from the calibration samples, by the
// rule stated there (5th and 95th percentiles of ptxas / estimate per kind and band; a class
// with fewer than 30 entries takes its kind's, a kind with fewer than 30 all entries').
void printRangeCalibration(const std::vector<Sample>& samples) {
  constexpr double kLow = 0.05;
  constexpr double kHigh = 0.95;
  constexpr std::size_t kMinEntries = 30;
  std::vector<double> all;
  std::vector<std::vector<double>> byKind(registers::kRangeKinds);
  std::vector<std::vector<std::vector<double>>> byClass(registers::kRangeKinds,
                                                        std::vector<std::vector<double>>(registers::kRangeBands));
  for (const Sample& sample : samples) {
    if (sample.estimate <= 0) continue;
    double ratio = sample.truth / sample.estimate;
    auto kind = static_cast<std::size_t>(sample.rangeKind);
    all.push_back(ratio);
    byKind[kind].push_back(ratio);
    byClass[kind][registers::rangeBandOf(static_cast<std::uint32_t>(sample.estimate))].push_back(ratio);
  }
  std::printf("// ptxas / estimate, 5th and 95th percentiles, on %zu calibration entries; [kind][band],\n", all.size());
  std::printf("// bands of the estimate [1, 24), [24, 40), [40, 64), [64, 255]; (entries, from: class/kind/all).\n");
  std::printf("constexpr RangeRatios kRangeRatios[kRangeKinds][kRangeBands] = {\n");
  for (std::size_t kind = 0; kind < registers::kRangeKinds; ++kind) {
    std::string line = "    {";
    std::string notes;
    for (std::size_t band = 0; band < registers::kRangeBands; ++band) {
      const std::vector<double>* source = &byClass[kind][band];
      const char* from = "class";
      if (source->size() < kMinEntries) {
        source = byKind[kind].size() >= kMinEntries ? &byKind[kind] : &all;
        from = byKind[kind].size() >= kMinEntries ? "kind" : "all";
      }
      char cell[64];
      std::snprintf(cell, sizeof cell, "%s{%.3f, %.3f}", band ? ", " : "", percentile(*source, kLow),
                    percentile(*source, kHigh));
      line += cell;
      char note[48];
      std::snprintf(note, sizeof note, "%s%zu %s", band ? ", " : "", byClass[kind][band].size(), from);
      notes += note;
    }
    std::printf("%s},  // %s: %s\n", line.c_str(), registers::rangeKindName(static_cast<registers::RangeKind>(kind)),
                notes.c_str());
  }
  std::printf("};\n");
}

void writeCsv(const std::string& path, const std::vector<Sample>& samples) {
  std::ofstream out(path);
  out << "family,file,function,ptxas,estimate,maxlive,feature,range_kind,range_low,range_high\n";
  for (const Sample& s : samples) {
    out << s.family << "," << s.file << "," << s.function << "," << s.truth << "," << s.estimate << "," << s.maxLive
        << "," << s.feature << "," << registers::rangeKindName(s.rangeKind) << "," << s.low << "," << s.high << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  fs::path corpus = fs::path(PTXLS_SOURCE_DIR) / ".." / "shared" / "corpus";
  fs::path own = fs::path(PTXLS_SOURCE_DIR) / "corpus";
  fs::path validation = fs::path(PTXLS_SOURCE_DIR) / "corpus" / "registers-validation";
  std::size_t worst = 15;
  std::string csv;
  bool costOnly = false;
  bool calibrateRange = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--corpus" && i + 1 < argc)
      corpus = argv[++i];
    else if (arg == "--own" && i + 1 < argc)
      own = argv[++i];
    else if (arg == "--validation" && i + 1 < argc)
      validation = argv[++i];
    else if (arg == "--worst" && i + 1 < argc)
      worst = std::stoul(argv[++i]);
    else if (arg == "--csv" && i + 1 < argc)
      csv = argv[++i];
    else if (arg == "--cost-only")
      costOnly = true;
    else if (arg == "--calibrate-range")
      calibrateRange = true;
    else {
      std::cerr << "usage: registers_bench [--corpus DIR] [--own DIR] [--validation DIR] [--worst N] [--csv FILE] "
                   "[--cost-only] [--calibrate-range]\n";
      return 2;
    }
  }
  // The validation set (corpus/registers-validation/README.md), family = the source's stem.
  std::vector<Sample> validationSamples;
  if (!costOnly && !calibrateRange && fs::exists(validation / "manifest.json")) {
    auto manifest = nlohmann::json::parse(readFile(validation / "manifest.json"));
    for (const auto& [name, entry] : manifest["files"].items()) {
      if (!entry.value("ptxas_accepted", false)) continue;
      std::string family = name.substr(0, name.find('.'));
      estimateFile(family, name, readPtx(validation / "ptx" / name), entry["functions"], validationSamples);
    }
  }
  // Its Triton part: the same manifest format, one family.
  fs::path triton = validation / "triton";
  if (!costOnly && !calibrateRange && fs::exists(triton / "manifest.json")) {
    auto manifest = nlohmann::json::parse(readFile(triton / "manifest.json"));
    for (const auto& [name, entry] : manifest["files"].items()) {
      if (!entry.value("ptxas_accepted", false)) continue;
      estimateFile("triton", name, readPtx(triton / "ptx" / name), entry["functions"], validationSamples);
    }
  }
  if (!validationSamples.empty()) {
    std::printf("VALIDATION: register estimate vs ptxas -v, entry functions of the frozen validation set\n");
    std::printf("(corpus/registers-validation, CUDA and triton/; no constant is tuned on it)\n");
    printTable(validationSamples);
    printValidationGoals(validationSamples);
    double coverage = printCoverage(validationSamples);
    std::printf("goal: interval coverage >= 80%% on validation: %s (%.1f%%)\n", coverage >= 0.80 ? "PASS" : "FAIL",
                100 * coverage);
    printWorst(validationSamples, worst);
    std::printf("\nCALIBRATION: ");
  }
  std::vector<Sample> samples;
  if (!costOnly && fs::exists(corpus / "ptxas-verdicts.json")) {
    auto verdicts = nlohmann::json::parse(readFile(corpus / "ptxas-verdicts.json"));
    for (const auto& [name, entry] : verdicts["files"].items()) {
      if (!entry.value("accepted", false) || !entry.contains("functions")) continue;
      std::string family = name.substr(0, name.find('/'));
      estimateFile(family, name, readPtx(corpus / name), entry["functions"], samples);
    }
  }
  if (!costOnly && fs::exists(corpus / "nvcc" / "ground-truth.json")) {
    auto truth = nlohmann::json::parse(readFile(corpus / "nvcc" / "ground-truth.json"));
    for (const auto& [name, entry] : truth["files"].items()) {
      if (entry.value("debug", false) || !entry["ptxas"].value("accepted", false)) continue;
      estimateFile("nvcc", name, readPtx(corpus / "nvcc" / name), entry["ptxas"]["functions"], samples);
    }
  }
  if (!costOnly && fs::exists(own / "ptxas-registers.json")) {
    auto truth = nlohmann::json::parse(readFile(own / "ptxas-registers.json"));
    for (const auto& [name, entry] : truth["files"].items()) {
      estimateFile("own", name, readPtx(own / name), entry["functions"], samples);
    }
  }
  if (samples.empty() && !costOnly) {
    std::cout << "skipped: no ground truth under " << corpus << "\n";
    return 0;
  }
  if (calibrateRange) {
    printRangeCalibration(samples);
    return 0;
  }
  if (!costOnly) {
    std::printf("register estimate vs ptxas -v, entry functions of accepted non-debug files\n");
    printTable(samples);
    printCalibrationGoals(samples);
    (void)printCoverage(samples);
    printWorst(samples, worst);
  }
  // Cost: the estimate of every function of the largest corpus file against a full lint of it
  // (one thread each, timed alternately, best of 7).
  fs::path largest;
  std::uintmax_t largestSize = 0;
  if (fs::exists(corpus)) {
    for (const auto& entry : fs::recursive_directory_iterator(corpus)) {
      if (entry.is_regular_file() && entry.path().extension() == ".ptx" && entry.file_size() > largestSize) {
        largestSize = entry.file_size();
        largest = entry.path();
      }
    }
  }
  if (!largest.empty()) {
    std::string text = readFile(largest);
    // The two are timed alternately, so that a slow spell of a shared machine slows both
    // alike, and each keeps its fastest run.
    auto elapsed = [](auto&& body) {
      auto start = std::chrono::steady_clock::now();
      body();
      return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    };
    LintResult result = lintText(text);
    double lintMs = 1e30;
    double estimateMs = 1e30;
    for (int run = 0; run < 7; ++run) {
      lintMs = std::min(lintMs, elapsed([&] { (void)lintText(text); }));
      estimateMs = std::min(estimateMs, elapsed([&] {
                              flow::FlowCache flows(text, result.module);
                              (void)registers::estimateRegisters(text, result.module, flows);
                            }));
    }
    std::printf(
        "\ncost on the largest corpus file (%s, %.2f MB): full lint %.0f ms, register estimate %.0f ms = %.1f%% "
        "(goal <= 20%%: %s)\n",
        largest.filename().c_str(), static_cast<double>(largestSize) / 1e6, lintMs, estimateMs,
        100 * estimateMs / lintMs, estimateMs <= 0.2 * lintMs ? "PASS" : "MISS");
  }
  if (!csv.empty()) {
    writeCsv(csv, samples);
    if (!validationSamples.empty()) {
      fs::path path(csv);
      writeCsv((path.parent_path() / (path.stem().string() + ".validation" + path.extension().string())).string(),
               validationSamples);
    }
  }
  return 0;
}

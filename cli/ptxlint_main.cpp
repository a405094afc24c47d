// ptxlint: lint PTX files from the command line.
//
// Usage: ptxlint [OPTIONS] PATH... (see kUsage and docs/ptxlint.1)
// Exit status: 0 when nothing was found, 1 when diagnostics were reported, 2 for usage,
// configuration or I/O errors. Files are linted in parallel, one worker per core, and
// reported in path order.
#include <algorithm>
#include <cctype>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <unistd.h>

#include "CudaFiles.h"
#include "ExactMode.h"
#include "FileReport.h"
#include "Inputs.h"
#include "LintCache.h"
#include "isa/IsaReference.h"
#include "Lint.h"
#include "PtxasRunner.h"
#include "Registry.h"
#include "RuleDocs.h"
#include "Settings.h"
#include "cuda/DevicePasses.h"
#include "emit/Emitter.h"
#include "flow/FunctionFlow.h"
#include "registers/RegisterPlot.h"
#include "registers/RegisterReport.h"
#include "text/LineIndex.h"

#ifndef PTXLS_VERSION
#define PTXLS_VERSION "0.0.0"
#endif

namespace fs = std::filesystem;
using namespace ptx;
using namespace ptx::cli;

namespace {

constexpr std::string_view kUsage = R"(ptxlint: a linter for NVIDIA PTX

Usage: ptxlint [OPTIONS] PATH...

PATH is a file, a directory or a glob; directories are searched recursively for *.ptx files
(hidden directories are skipped; .cu/.cuh files are not linted). A glob such as
'kernels/**/*.ptx' or '*.ptx' (quoted, so that ptxlint expands it) matches PTX files; '**'
crosses directories. '-' reads PTX from standard input.

Rule selection:
  --select RULE,...    Report only these rules (codes, names or categories such as isa).
  --ignore RULE,...    Do not report these rules (codes, names or categories).
  --disable RULE,...   Same as --ignore.
  --severity RULE=LVL  Report RULE (a code, name or category) as error, warning, info or hint.
  --severity LEVEL     Report only findings at or above LEVEL (error, warning, info, hint).
                       Both forms may be given.
  --werror             Treat warnings as errors (shown as errors; they fail the run).
  --target sm_XY       Check every file against this target instead of its .target.

CUDA sources (.cu, .cuh; headers named on the command line; in directories, headers that
hold asm): the PTX inside asm statements is checked for each device pass.
  --cuda-arch LIST     The passes, as nvcc names architectures: sm_90a,sm_100a (sm_90a is the
                       compute_90 and compute_90a passes). Default: the nearest .ptxls.json's
                       cuda.arch, else the file's compile_commands.json entry, else the
                       architectures the file's #if guards name (else sm_80).
  --compile-commands DIR
                       Read compile_commands.json in DIR (default: searched as clangd does).
  --nvcc               Exact mode: also compile each CUDA source with nvcc (-ptx -lineinfo,
                       its compile_commands.json flags) for every pass, run ptxas on each
                       pass's PTX, lint it, and report nvcc's and ptxas's errors and the PTX
                       findings at the source lines they come from ($NVCC, $CUDA_HOME/bin or
                       /usr/local/cuda/bin; 60 s per step at most).

Configuration:
  --config FILE        Use this .ptxls.json for every file instead of searching upward.
  --no-config          Ignore .ptxls.json files (by default the nearest one above each file
                       configures it; command-line rule options win).
  --stdin-filename NAME
                       The path reported for '-' (also where .ptxls.json is searched from).

Reports:
  --report registers   Also report each kernel's and function's estimated registers, spills,
                       the peak program point and what is live there, and the occupancy on
                       the target (text after the findings; JSON: a "functions" array per file).
  --plot DIR           With --report registers: write one SVG per function into DIR (live
                       registers along the instructions, loops shaded, peak and budget marked).
  --ptxas              With --report registers: also run ptxas -v on each file (for its
                       .target; $PTXAS, $CUDA_HOME/bin or /usr/local/cuda/bin; 60 s at most)
                       and show its register figure beside the estimate.

Output:
  --format FORMAT      Output format: text (default), json (docs/json-format.md) or sarif
                       (SARIF 2.1.0 for code scanning, e.g. GitHub; docs/sarif.md).
  --output FILE        Write the report to FILE instead of standard output.
  --quiet, -q          Print only the findings (text: no summary line).
  --stats              Print per-rule counts after the report (on stderr for json/sarif).
  --color WHEN         Colour text output: auto (default: when standard output is a terminal
                       and NO_COLOR is unset), always or never.

Cache:
  --no-cache           Lint every file afresh and leave the cache alone.
  --cache-dir DIR      Keep results here (default: $PTXLINT_CACHE_DIR, else .ptxlint_cache in
                       the working directory). A file whose bytes, settings and ptxlint build
                       are unchanged since an earlier run is not analyzed again.

Other:
  --jobs N             Worker threads (default: one per core).
  --list-rules         List every rule (code, name, category, default severity) and exit.
  --explain RULE       Print a rule's documentation (code or name) and exit.
  --help               Show this help and exit.
  --version            Show the version and exit.

Exit status:
  0  no findings.
  1  findings reported (at or above the --severity threshold).
  1  also when some paths could not be checked (missing, unreadable, binary, a directory
     or glob without PTX files) but others were: each such path is named on stderr.
  2  usage or configuration error, an unwritable --output, or nothing could be checked.
)";

enum class Format { Text, Json, Sarif };

enum class Color { Auto, Always, Never };

struct Options {
  Format format = Format::Text;
  unsigned jobs = 0;
  std::vector<std::string> paths;
  LintOptions lint;       // Rule settings from the command line; they win over project files.
  bool useProjectFiles = true;
  std::optional<std::set<std::string>> select;  // Rule codes; nullopt: every rule.
  bool werror = false;
  Severity threshold = Severity::Hint;          // Report findings at or above this.
  std::optional<std::string> output;            // --output FILE.
  std::optional<std::string> stdinFilename;
  std::optional<std::string> configFile;        // --config FILE.
  bool quiet = false;
  bool stats = false;
  Color color = Color::Auto;
  bool useCache = true;
  std::optional<std::string> cacheDir;  // --cache-dir DIR.
  bool reportRegisters = false;         // --report registers.
  std::optional<std::string> plotDir;   // --plot DIR.
  bool verifyWithPtxas = false;         // --ptxas.
  std::optional<std::string> ptxas;     // The ptxas that --ptxas runs (none found: nullopt).
  cli::CudaCommandLine cuda;            // --cuda-arch, --compile-commands, --nvcc.
};

std::optional<Severity> parseSeverity(std::string_view level) {
  if (level == "error") return Severity::Error;
  if (level == "warning") return Severity::Warning;
  if (level == "info" || level == "information") return Severity::Information;
  if (level == "hint") return Severity::Hint;
  return std::nullopt;
}

struct UsageError {
  std::string message;
};

Options parseArguments(int argc, char** argv, bool& exitEarly) {
  Options options;
  exitEarly = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto value = [&](std::string_view name) -> std::string_view {
      auto eq = arg.find('=');
      if (eq != std::string_view::npos) return arg.substr(eq + 1);
      if (i + 1 >= argc) throw UsageError{std::string(name) + " needs a value"};
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      exitEarly = true;
      return options;
    }
    if (arg == "--version" || arg == "-V") {
      std::cout << "ptxlint " << PTXLS_VERSION << "\n";
      exitEarly = true;
      return options;
    }
    if (arg == "--list-rules") {
      for (const RuleMeta& rule : allRules()) {
        std::cout << rule.code << "  " << rule.name << "  [" << toString(rule.category) << ", "
                  << toString(rule.defaultSeverity) << "]\n    " << rule.summary << "\n";
      }
      exitEarly = true;
      return options;
    }
    if (arg == "--explain" || arg.starts_with("--explain=")) {
      std::string_view wanted = value("--explain");
      const RuleMeta* rule = findRule(wanted);
      if (rule == nullptr) throw UsageError{"no rule named '" + std::string(wanted) + "' (see --list-rules)"};
      std::cout << rule->code << " " << rule->name << " [" << toString(rule->category) << ", "
                << toString(rule->defaultSeverity) << "]\n\n" << rule->summary << "\n";
      std::string_view documentation = ruleDocumentation(rule->code);
      if (!documentation.empty()) std::cout << "\n" << documentation << "\n";
      exitEarly = true;
      return options;
    }
    if (arg == "--no-config") {
      options.useProjectFiles = false;
    } else if (arg == "--disable" || arg.starts_with("--disable=") || arg == "--ignore" ||
               arg.starts_with("--ignore=") || arg == "--select" || arg.starts_with("--select=")) {
      // A comma-separated list of rule codes, names or categories.
      std::string option(arg.substr(0, arg.find('=')));
      bool selecting = option == "--select";
      std::string_view list = value(option);
      if (selecting && !options.select) options.select.emplace();
      if (list.empty()) throw UsageError{option + " needs a list of rules"};
      while (!list.empty()) {
        std::string_view item = list.substr(0, std::min(list.find(','), list.size()));
        list.remove_prefix(std::min(item.size() + 1, list.size()));
        if (item.empty()) continue;
        bool found = false;
        for (const RuleMeta& rule : allRules()) {
          if (rule.code == item || rule.name == item || toString(rule.category) == item) {
            if (selecting) {
              options.select->insert(std::string(rule.code));
              options.lint.rules[std::string(rule.code)].enabled = true;  // Opt-in rules too.
            } else {
              options.lint.rules[std::string(rule.code)].enabled = false;
            }
            found = true;
          }
        }
        if (!found) throw UsageError{option + ": no rule or category named '" + std::string(item) + "'"};
      }
    } else if (arg == "--severity" || arg.starts_with("--severity=")) {
      // RULE=LEVEL or CATEGORY=LEVEL, e.g. ISA010=error, alignment=warning; or a bare LEVEL,
      // the threshold below which findings are not reported.
      std::string_view setting = value("--severity");
      auto eq = setting.find('=');
      if (eq == std::string_view::npos) {
        std::optional<Severity> threshold = parseSeverity(setting);
        if (!threshold) {
          throw UsageError{"--severity needs LEVEL or RULE=LEVEL with LEVEL error, warning, info or hint, got '" +
                           std::string(setting) + "'"};
        }
        options.threshold = *threshold;
        continue;
      }
      std::string_view name = setting.substr(0, eq);
      std::vector<const RuleMeta*> selected;
      if (const RuleMeta* rule = name.empty() ? nullptr : findRule(name)) {
        selected.push_back(rule);
      } else {
        for (const RuleMeta& candidate : allRules()) {
          if (!name.empty() && toString(candidate.category) == name) selected.push_back(&candidate);
        }
      }
      std::optional<Severity> severity = parseSeverity(setting.substr(eq + 1));
      if (selected.empty() || !severity) {
        throw UsageError{"--severity needs RULE=error|warning|info|hint (a rule code, name or category), got '" +
                         std::string(setting) + "'"};
      }
      for (const RuleMeta* rule : selected) options.lint.rules[std::string(rule->code)].severity = severity;
    } else if (arg == "--report" || arg.starts_with("--report=")) {
      std::string_view what = value("--report");
      if (what != "registers") throw UsageError{"--report needs 'registers', got '" + std::string(what) + "'"};
      options.reportRegisters = true;
    } else if (arg == "--ptxas") {
      options.verifyWithPtxas = true;
    } else if (arg == "--plot" || arg.starts_with("--plot=")) {
      std::string_view directory = value("--plot");
      if (directory.empty()) throw UsageError{"--plot needs a folder"};
      options.plotDir = std::string(directory);
    } else if (arg == "--no-cache") {
      options.useCache = false;
    } else if (arg == "--cache-dir" || arg.starts_with("--cache-dir=")) {
      std::string_view directory = value("--cache-dir");
      if (directory.empty()) throw UsageError{"--cache-dir needs a folder"};
      options.cacheDir = std::string(directory);
    } else if (arg == "--werror") {
      options.werror = true;
    } else if (arg == "--quiet" || arg == "-q") {
      options.quiet = true;
    } else if (arg == "--stats" || arg == "--statistics") {
      options.stats = true;
    } else if (arg == "--output" || arg.starts_with("--output=") || arg == "-o") {
      std::string_view file = value("--output");
      if (file.empty()) throw UsageError{"--output needs a file name"};
      options.output = std::string(file);
    } else if (arg == "--stdin-filename" || arg.starts_with("--stdin-filename=")) {
      std::string_view name = value("--stdin-filename");
      if (name.empty()) throw UsageError{"--stdin-filename needs a name"};
      options.stdinFilename = std::string(name);
    } else if (arg == "--config" || arg.starts_with("--config=")) {
      std::string_view file = value("--config");
      if (file.empty()) throw UsageError{"--config needs a file name"};
      options.configFile = std::string(file);
    } else if (arg == "--cuda-arch" || arg.starts_with("--cuda-arch=")) {
      std::string_view list = value("--cuda-arch");
      cuda::PassList passes = cuda::parseCudaArchList(list, "--cuda-arch ");
      if (!passes.error.empty()) throw UsageError{"--cuda-arch: " + passes.error};
      options.cuda.arch = std::string(list);
    } else if (arg == "--nvcc") {
      options.cuda.nvcc = true;
    } else if (arg == "--compile-commands" || arg.starts_with("--compile-commands=")) {
      options.cuda.compileCommands = std::string(value("--compile-commands"));
    } else if (arg == "--target" || arg.starts_with("--target=")) {
      std::string_view target = value("--target");
      TargetArch arch;
      if (!parseTargetArch(target, arch)) {
        throw UsageError{"--target needs a target such as sm_90 or sm_90a, got '" + std::string(target) + "'"};
      }
      options.lint.targetOverride = std::string(target);
    } else if (arg == "--color" || arg.starts_with("--color=") || arg == "--colour" || arg.starts_with("--colour=")) {
      std::string_view when = value("--color");
      if (when == "auto") {
        options.color = Color::Auto;
      } else if (when == "always") {
        options.color = Color::Always;
      } else if (when == "never") {
        options.color = Color::Never;
      } else {
        throw UsageError{"--color needs auto, always or never, got '" + std::string(when) + "'"};
      }
    } else if (arg == "--format" || arg.starts_with("--format=")) {
      std::string_view format = value("--format");
      if (format == "text") {
        options.format = Format::Text;
      } else if (format == "json") {
        options.format = Format::Json;
      } else if (format == "sarif") {
        options.format = Format::Sarif;
      } else {
        throw UsageError{"unknown format '" + std::string(format) + "' (expected text, json or sarif)"};
      }
    } else if (arg == "--jobs" || arg.starts_with("--jobs=") || arg == "-j") {
      std::string_view count = value("--jobs");
      unsigned jobs = 0;
      auto [end, error] = std::from_chars(count.data(), count.data() + count.size(), jobs);
      if (error != std::errc() || end != count.data() + count.size() || jobs == 0) {
        throw UsageError{"--jobs needs a positive number, got '" + std::string(count) + "'"};
      }
      options.jobs = jobs;
    } else if (arg.starts_with("-") && arg != "-") {
      throw UsageError{"unknown option '" + std::string(arg) + "'"};
    } else {
      options.paths.emplace_back(arg);
    }
  }
  if (options.paths.empty()) throw UsageError{"no PATH given"};
  if (options.configFile && !options.useProjectFiles) throw UsageError{"--config and --no-config conflict"};
  if (options.plotDir && !options.reportRegisters) throw UsageError{"--plot needs --report registers"};
  if (options.verifyWithPtxas && !options.reportRegisters) throw UsageError{"--ptxas needs --report registers"};
  if (options.verifyWithPtxas) options.ptxas = oracle::findPtxas();
  if (options.select) {
    // ruff semantics: --select keeps only the listed rules; --ignore still removes from them.
    for (const RuleMeta& rule : allRules()) {
      if (!options.select->contains(std::string(rule.code))) options.lint.rules[std::string(rule.code)].enabled = false;
    }
  }
  return options;
}

// The options for one file: its project file's settings (if any) under the command line's.
class OptionsForFiles {
 public:
  explicit OptionsForFiles(const Options& options) : options_(options) {}

  // Loads --config FILE up front; false (after a message on stderr) when it cannot be used.
  bool loadConfigFile() {
    if (!options_.configFile) return true;
    config::ProjectSettings project = config::loadProjectFile(*options_.configFile);
    if (!project.unusable.empty()) {
      std::cerr << "ptxlint: --config " << *options_.configFile << ": " << project.unusable << "\n";
      return false;
    }
    for (const std::string& message : project.problems) {
      std::cerr << "ptxlint: --config " << *options_.configFile << ": " << message << "\n";
    }
    if (!project.problems.empty()) return false;
    configured_ = withCommandLine(project.settings);
    configuredCudaArch_ = project.settings.cudaArch;
    return true;
  }

  // The `cuda.arch` of the project file that configures `path` (empty when none says).
  std::vector<std::string> cudaArchFor(const std::string& path) {
    if (configured_) return configuredCudaArch_;
    if (!options_.useProjectFiles || path == "-") return {};
    std::error_code error;
    std::optional<fs::path> projectFile = config::findProjectFile(fs::absolute(path, error));
    if (!projectFile) return {};
    std::lock_guard lock(mutex_);
    auto [it, inserted] = cudaArch_.try_emplace(projectFile->string());
    if (inserted) it->second = config::loadProjectFile(*projectFile).settings.cudaArch;
    return it->second;
  }

  // `path`: the file's path (for standard input, --stdin-filename or "-").
  LintOptions forFile(const std::string& path) {
    if (configured_) return *configured_;
    if (!options_.useProjectFiles || path == "-") return options_.lint;
    std::error_code error;
    fs::path absolute = fs::absolute(path, error);
    std::optional<fs::path> projectFile = config::findProjectFile(absolute);
    if (!projectFile) return options_.lint;
    std::lock_guard lock(mutex_);
    auto [it, inserted] = cache_.try_emplace(projectFile->string());
    if (inserted) it->second = load(*projectFile);
    return it->second;
  }

 private:
  LintOptions load(const fs::path& projectFile) {
    config::ProjectSettings project = config::loadProjectFile(projectFile);
    if (!project.unusable.empty()) std::cerr << "ptxlint: " << projectFile.string() << ": " << project.unusable << "; ignored\n";
    for (const std::string& message : project.problems) {
      std::cerr << "ptxlint: " << projectFile.string() << ": " << message << "\n";
    }
    return withCommandLine(project.settings);
  }

  // A project file's settings under the command line's.
  LintOptions withCommandLine(const config::Settings& settings) const {
    LintOptions lint = config::lintOptionsFor(settings);
    lint.maxTextBytes = LintOptions{}.maxTextBytes;  // The editor's lower limit is for memory held per open file.
    for (const auto& [code, setting] : options_.lint.rules) {
      RuleSetting& merged = lint.rules[code];
      if (!setting.enabled) merged.enabled = false;
      if (setting.severity) merged.severity = setting.severity;
    }
    if (options_.lint.targetOverride) lint.targetOverride = options_.lint.targetOverride;
    return lint;
  }

  const Options& options_;
  std::optional<LintOptions> configured_;  // From --config.
  std::vector<std::string> configuredCudaArch_;
  std::mutex mutex_;
  std::map<std::string, LintOptions> cache_;
  std::map<std::string, std::vector<std::string>> cudaArch_;
};

// Shows "[n/N] path" on stderr while files are linted (only where stderr is a terminal).
class Progress {
 public:
  Progress(bool enabled, std::size_t total) : enabled_(enabled), total_(total) {}
  ~Progress() {
    if (enabled_ && shown_) std::fprintf(stderr, "\r\x1b[K");
  }
  void started(const std::string& path) {
    if (!enabled_) return;
    std::lock_guard lock(mutex_);
    ++done_;
    std::fprintf(stderr, "\r\x1b[K[%zu/%zu] %s", done_, total_, path.c_str());
    std::fflush(stderr);
    shown_ = true;
  }

 private:
  bool enabled_;
  std::size_t total_;
  std::size_t done_ = 0;
  bool shown_ = false;
  std::mutex mutex_;
};

FileReport unreadable(const std::string& shown, const std::string& problem) {
  FileReport report;
  report.path = shown;
  report.ioError = problem;
  return report;
}

// A file name for the plot of `function` in `file`: letters, digits, '_', '-', '.', kept
// short (long mangled C++ names end in a hash so that two functions never share a file).
std::string plotFileName(const std::string& file, const std::string& function) {
  std::string stem = fs::path(file).stem().string() + "." + function;
  std::string safe;
  for (char c : stem) safe += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ? c : '_';
  if (safe.size() > 120) {
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(std::hash<std::string>()(stem)));
    safe = safe.substr(0, 100) + "-" + hash;
  }
  return safe + ".svg";
}

// --ptxas: runs ptxas -v on the file for `target` and puts its figure beside each function's
// estimate; a file it cannot assemble says why.
void addPtxasFigures(FileReport& report, const std::string& text, const std::string& target, const Options& settings) {
  report.ptxasAsked = true;
  if (!settings.ptxas) {
    report.ptxasError = "ptxas not found (set PTXAS or CUDA_HOME)";
    return;
  }
  oracle::PtxasResult ptxas = oracle::runPtxas(*settings.ptxas, text, target);
  if (!ptxas.error.empty()) {
    report.ptxasError = ptxas.error;
    return;
  }
  for (ReportedFunction& function : report.functions) {
    auto found = ptxas.functions.find(function.name);
    if (found == ptxas.functions.end()) continue;
    function.hasPtxas = true;
    function.ptxasRegisters = found->second.registers;
    function.ptxasSpillStores = found->second.spillStores;
    function.ptxasSpillLoads = found->second.spillLoads;
  }
}

// --report registers: the lint (never from the cache: the report needs the module) and the
// register report of every function, with its plot when --plot is given.
FileReport lintAndReport(const std::string& shown, const std::string& text, const LintOptions& options,
                         const Options& settings, SarifFileDetails* sarif) {
  LintResult result = lintText(text, options);
  if (auto noPtx = noPtxDiagnostic(text, options)) result.diagnostics.push_back(std::move(*noPtx));
  if (sarif != nullptr) *sarif = buildSarifDetails(text, result.diagnostics);
  FileReport report = buildFileReport(shown, text, result.diagnostics);
  report.hasFunctions = true;
  flow::FlowCache flows(text, result.module);
  LineIndex lines(text);
  for (const registers::FunctionRegisterReport& function :
       registers::reportRegisters(text, result.module, flows, options.targetOverride)) {
    ReportedFunction out;
    out.name = function.name;
    out.kind = function.isEntry ? "entry" : "func";
    out.line = lines.byteColumn(function.nameRange.begin).line + 1;
    out.registers = function.estimate.registers;
    out.rangeLow = function.range.low;
    out.rangeHigh = function.range.high;
    out.afterSetmaxnreg = function.estimate.afterSetmaxnreg;
    out.maxLive = function.estimate.maxLiveUnits;
    out.spills = function.estimate.spilledUnits;
    out.budget = function.estimate.budget;
    out.budgetReason = function.estimate.budgetReason;
    out.peakLine = lines.byteColumn(result.module.instructions[function.estimate.peakInstruction].statement.begin).line + 1;
    registers::PlotInput plot = registers::plotInputFor(text, lines, result.module, function);
    out.liveAtPeak = plot.liveAtPeak;
    out.target = function.target;
    out.threadsPerBlock = function.threadsPerBlock;
    out.threadsAssumed = function.threadsAssumed;
    out.sharedBytes = function.sharedBytes;
    if (function.occupancy) {
      out.hasOccupancy = true;
      out.blocksPerSm = function.occupancy->blocksPerSm;
      out.activeWarpsPerSm = function.occupancy->activeWarpsPerSm;
      out.maxWarpsPerSm = function.occupancy->maxWarpsPerSm;
      out.occupancy = function.occupancy->fraction;
      out.limitedBy = function.occupancy->limitedBy;
      out.fewerRegistersForMoreBlocks = function.occupancy->fewerRegistersForMoreBlocks;
      out.blocksWithFewerRegisters = function.occupancy->blocksWithFewerRegisters;
    }
    out.confidence = function.confidence;
    out.summary = registers::summaryLine(function, /*ascii=*/true);
    if (settings.plotDir) {
      fs::path file = fs::path(*settings.plotDir) / plotFileName(shown, function.name);
      std::ofstream svg(file, std::ios::binary | std::ios::trunc);
      svg << registers::renderRegisterPlot(plot);
      if (svg) out.plot = file.string();
    }
    report.functions.push_back(std::move(out));
  }
  if (settings.verifyWithPtxas) addPtxasFigures(report, text, registers::reportTarget(result.module, options.targetOverride), settings);
  return report;
}

// `sarif`, when given, receives what SARIF output needs beyond the report (fixes, UTF-16 columns).
// `threads`: how many threads this file may use (a big file is then linted in parallel).
// `cache`, when given, answers for texts linted before with the same settings.
FileReport lintOne(const Input& input, const Options& settings, OptionsForFiles& lintOptions, unsigned threads,
                   LintCache* cache, SarifFileDetails* sarif = nullptr) {
  std::string shown = input.path == "-" ? settings.stdinFilename.value_or("<stdin>") : input.path;
  if (!input.ioError.empty()) return unreadable(shown, input.ioError);
  std::string text;
  std::string error;
  if (!readPtxText(input.path, text, error)) return unreadable(shown, error);
  std::string configuredPath = input.path == "-" ? settings.stdinFilename.value_or("-") : input.path;
  LintOptions options = lintOptions.forFile(configuredPath);
  options.threads = threads;
  if (isCudaSourcePath(configuredPath)) {
    cli::CudaFileSetup setup = cli::cudaSetupFor(configuredPath, options, lintOptions.cudaArchFor(configuredPath), settings.cuda);
    for (const std::string& problem : setup.setup.problems) std::cerr << "ptxlint: " << shown << ": " << problem << "\n";
    std::vector<Diagnostic> diagnostics = lintCudaText(text, setup.options).diagnostics;
    if (settings.cuda.nvcc && input.path != "-") {
      std::vector<std::string> problems;
      for (Diagnostic& exact : cli::exactModeDiagnostics(input.path, text, setup, problems)) diagnostics.push_back(std::move(exact));
      for (const std::string& problem : problems) std::cerr << "ptxlint: " << shown << ": " << problem << "\n";
      std::stable_sort(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return std::tie(a.range.begin, a.rule) < std::tie(b.range.begin, b.rule);
      });
    }
    if (sarif != nullptr) *sarif = buildSarifDetails(text, diagnostics);
    return buildFileReport(shown, text, diagnostics);
  }
  if (settings.reportRegisters) return lintAndReport(shown, text, options, settings, sarif);
  if (cache != nullptr && !LintCache::cacheable(options)) cache = nullptr;
  std::string key = cache != nullptr ? cache->settingsKey(options) : std::string();
  std::optional<std::vector<Diagnostic>> diagnostics = cache != nullptr ? cache->load(key, text) : std::nullopt;
  if (!diagnostics) {
    options.diagnosticsOnly = true;  // Only the diagnostics are read: a big text is linted in groups of functions.
    diagnostics = lintText(text, options).diagnostics;
    if (cache != nullptr) cache->store(key, text, *diagnostics);
  }
  // A file without any PTX is clean to the lint (an editor's new, empty buffer), but ptxas
  // rejects it, and a CI run must say so in every format.
  if (auto noPtx = noPtxDiagnostic(text, options)) diagnostics->push_back(std::move(*noPtx));
  if (sarif != nullptr) *sarif = buildSarifDetails(text, *diagnostics);
  return buildFileReport(shown, text, *diagnostics);
}

std::vector<FileReport> lintAll(const std::vector<Input>& inputs, const Options& settings, OptionsForFiles& lint,
                                Progress& progress, LintCache* cache, std::vector<SarifFileDetails>* sarif = nullptr) {
  std::vector<FileReport> reports(inputs.size());
  if (sarif != nullptr) sarif->assign(inputs.size(), {});
  // One worker per core; with fewer files than cores, each file gets the spare cores as
  // threads of its own (LintOptions::threads: files over 1 MB are then linted in parallel).
  unsigned cores = settings.jobs != 0 ? settings.jobs : std::max(1u, std::thread::hardware_concurrency());
  auto workers = static_cast<unsigned>(std::min<std::size_t>(cores, std::max<std::size_t>(inputs.size(), 1)));
  unsigned threadsPerFile = std::max(1u, cores / workers);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < inputs.size(); i = next++) {
      progress.started(inputs[i].path);
      reports[i] = lintOne(inputs[i], settings, lint, threadsPerFile, cache, sarif != nullptr ? &(*sarif)[i] : nullptr);
    }
  };
  std::vector<std::jthread> pool;
  for (unsigned w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  pool.clear();  // Joins.
  return reports;
}

// --werror, then the --severity threshold; SARIF details stay parallel to the reports.
void applySeverityOptions(const Options& options, std::vector<FileReport>& reports,
                          std::vector<SarifFileDetails>* sarif) {
  for (std::size_t f = 0; f < reports.size(); ++f) {
    std::vector<ReportedDiagnostic>& diagnostics = reports[f].diagnostics;
    std::vector<SarifDiagnosticDetails>* details = nullptr;
    if (sarif != nullptr && f < sarif->size() && (*sarif)[f].diagnostics.size() == diagnostics.size()) {
      details = &(*sarif)[f].diagnostics;
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < diagnostics.size(); ++i) {
      if (options.werror && diagnostics[i].severity == Severity::Warning) diagnostics[i].severity = Severity::Error;
      if (diagnostics[i].severity > options.threshold) continue;
      if (kept != i) {
        diagnostics[kept] = std::move(diagnostics[i]);
        if (details != nullptr) (*details)[kept] = std::move((*details)[i]);
      }
      ++kept;
    }
    diagnostics.resize(kept);
    if (details != nullptr) details->resize(kept);
  }
}

// The cache for this run: --cache-dir, $PTXLINT_CACHE_DIR or .ptxlint_cache; none with
// --no-cache or when the folder cannot be created (the run is then just slower).
std::unique_ptr<LintCache> openCache(const Options& options) {
  if (!options.useCache) return nullptr;
  std::string directory = ".ptxlint_cache";
  if (options.cacheDir) {
    directory = *options.cacheDir;
  } else if (const char* fromEnvironment = std::getenv("PTXLINT_CACHE_DIR");
             fromEnvironment != nullptr && *fromEnvironment != '\0') {
    directory = fromEnvironment;
  }
  std::string problem;
  std::unique_ptr<LintCache> cache = LintCache::open(directory, currentToolIdentity(PTXLS_VERSION), problem);
  if (!cache && options.cacheDir) std::cerr << "ptxlint: --cache-dir " << directory << ": " << problem << "; not caching\n";
  return cache;
}

bool wantColor(Color color) {
  if (color != Color::Auto) return color == Color::Always;
  const char* noColor = std::getenv("NO_COLOR");
  if (noColor != nullptr && *noColor != '\0') return false;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::string_view(term) == "dumb") return false;
  return ::isatty(STDOUT_FILENO) != 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  Options options;
  try {
    bool exitEarly = false;
    options = parseArguments(argc, argv, exitEarly);
    if (exitEarly) return 0;
  } catch (const UsageError& error) {
    std::cerr << "ptxlint: " << error.message << "\nTry 'ptxlint --help'.\n";
    return 2;
  }
  OptionsForFiles lintOptions(options);
  if (!lintOptions.loadConfigFile()) return 2;
  std::ofstream file;
  if (options.output) {
    file.open(*options.output, std::ios::binary | std::ios::trunc);
    if (!file) {
      int code = errno;
      std::cerr << "ptxlint: --output " << *options.output << ": cannot write"
                << (code != 0 ? ": " + std::error_code(code, std::generic_category()).message() : std::string())
                << "\n";
      return 2;
    }
  }
  std::ostream& out = options.output ? static_cast<std::ostream&>(file) : std::cout;

  if (options.plotDir) {
    std::error_code error;
    fs::create_directories(*options.plotDir, error);
    if (error || !fs::is_directory(*options.plotDir)) {
      std::cerr << "ptxlint: --plot " << *options.plotDir << ": cannot create the folder"
                << (error ? ": " + error.message() : std::string()) << "\n";
      return 2;
    }
  }
  std::vector<Input> inputs = collectInputs(options.paths);
  std::unique_ptr<LintCache> cache = openCache(options);
  std::vector<SarifFileDetails> sarif;
  std::vector<SarifFileDetails>* sarifDetails = options.format == Format::Sarif ? &sarif : nullptr;
  std::vector<FileReport> reports;
  {
    Progress progress(!options.quiet && inputs.size() > 20 && ::isatty(STDERR_FILENO) != 0, inputs.size());
    reports = lintAll(inputs, options, lintOptions, progress, cache.get(), sarifDetails);
  }
  applySeverityOptions(options, reports, sarifDetails);
  for (const FileReport& report : reports) {
    if (!report.ioError.empty()) std::cerr << "ptxlint: " << report.path << ": " << report.ioError << "\n";
  }
  RunSummary summary = summarize(reports);
  bool color = !options.output && wantColor(options.color);
  if (options.format == Format::Json) {
    emitJson(out, reports, summary, PTXLS_VERSION);
  } else if (options.format == Format::Sarif) {
    emitSarif(out, reports, sarif, summary, PTXLS_VERSION);
  } else {
    emitText(out, reports, summary, TextOptions{color, !options.quiet});
    if (options.reportRegisters) emitRegisterReport(out, reports, color);
  }
  if (options.stats) {
    if (options.format == Format::Text) {
      emitStatistics(out, reports, color);
    } else {
      emitStatistics(std::cerr, reports, false);
    }
    if (cache) {
      std::cerr << "cache: " << cache->hits() << " of " << (cache->hits() + cache->misses()) << " files from "
                << cache->directory().string() << "\n";
    }
  }
  out.flush();
  if (!out) {
    std::cerr << "ptxlint: " << (options.output ? *options.output : std::string("standard output"))
              << ": write error\n";
    return 2;
  }
  // Nothing checked is a failure of the run itself; a path that could not be checked among
  // others that could fails the run like a finding (the others are still reported).
  if (summary.ioErrors > 0 && summary.filesChecked == 0) return 2;
  return summary.diagnostics() > 0 || summary.ioErrors > 0 ? 1 : 0;
}

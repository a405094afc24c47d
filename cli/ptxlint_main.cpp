// ptxlint: lint PTX files from the command line.
//
// Usage: ptxlint [--format text|json|sarif] [--jobs N] PATH...
// Exit status: 0 when nothing was found, 1 when diagnostics were reported, 2 for usage or
// I/O errors. Files are linted in parallel, one worker per core, and reported in path order.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "FileReport.h"
#include "Lint.h"
#include "Registry.h"
#include "RuleDocs.h"
#include "Settings.h"
#include "emit/Emitter.h"

#ifndef PTXLS_VERSION
#define PTXLS_VERSION "0.0.0"
#endif

namespace fs = std::filesystem;
using namespace ptx;
using namespace ptx::cli;

namespace {

constexpr std::string_view kUsage = R"(ptxlint: a linter for NVIDIA PTX

Usage: ptxlint [OPTIONS] PATH...

PATH is a file or a directory; directories are searched recursively for *.ptx files
(hidden directories are skipped). '-' reads PTX from standard input.

Options:
  --format FORMAT      Output format: text (default), json (docs/json-format.md) or sarif
                       (SARIF 2.1.0 for code scanning, e.g. GitHub; docs/sarif.md).
  --jobs N             Worker threads (default: one per core).
  --list-rules         List every rule (code, name, category, default severity) and exit.
  --explain RULE       Print a rule's documentation (code or name) and exit.
  --disable RULE,...   Do not report these rules (codes, names or categories such as isa).
  --no-config          Ignore .ptxls.json files (by default the nearest one above each file
                       configures it; command-line rule options win).
  --severity RULE=LVL  Report RULE (a code, name or category) as error, warning, info or hint.
  --help               Show this help and exit.
  --version            Show the version and exit.

Exit status: 0 nothing found, 1 diagnostics reported, 2 usage or I/O error.
)";

enum class Format { Text, Json, Sarif };

struct Options {
  Format format = Format::Text;
  unsigned jobs = 0;
  std::vector<std::string> paths;
  LintOptions lint;       // Rule settings from the command line; they win over project files.
  bool useProjectFiles = true;
};

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
    } else if (arg == "--disable" || arg.starts_with("--disable=")) {
      // A comma-separated list of rule codes or names.
      std::string_view list = value("--disable");
      while (!list.empty()) {
        std::string_view item = list.substr(0, std::min(list.find(','), list.size()));
        list.remove_prefix(std::min(item.size() + 1, list.size()));
        bool found = false;
        for (const RuleMeta& rule : allRules()) {
          if (rule.code == item || rule.name == item || toString(rule.category) == item) {
            options.lint.rules[std::string(rule.code)].enabled = false;
            found = true;
          }
        }
        if (!found) throw UsageError{"--disable: no rule or category named '" + std::string(item) + "'"};
      }
    } else if (arg == "--severity" || arg.starts_with("--severity=")) {
      // RULE=LEVEL or CATEGORY=LEVEL, e.g. ISA010=error, alignment=warning.
      std::string_view setting = value("--severity");
      auto eq = setting.find('=');
      std::string_view name = eq == std::string_view::npos ? std::string_view() : setting.substr(0, eq);
      std::vector<const RuleMeta*> selected;
      if (const RuleMeta* rule = name.empty() ? nullptr : findRule(name)) {
        selected.push_back(rule);
      } else {
        for (const RuleMeta& rule : allRules()) {
          if (!name.empty() && toString(rule.category) == name) selected.push_back(&rule);
        }
      }
      std::string_view level = eq == std::string_view::npos ? std::string_view() : setting.substr(eq + 1);
      std::optional<Severity> severity = level == "error"     ? std::optional(Severity::Error)
                                         : level == "warning" ? std::optional(Severity::Warning)
                                         : level == "info"    ? std::optional(Severity::Information)
                                         : level == "hint"    ? std::optional(Severity::Hint)
                                                              : std::nullopt;
      if (selected.empty() || !severity) {
        throw UsageError{"--severity needs RULE=error|warning|info|hint (a rule code, name or category), got '" +
                         std::string(setting) + "'"};
      }
      for (const RuleMeta* rule : selected) options.lint.rules[std::string(rule->code)].severity = severity;
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
  return options;
}

struct Input {
  std::string path;
  std::string ioError;
};

// Expands directories into their *.ptx files, sorted; keeps explicit files as given.
std::vector<Input> collectInputs(const std::vector<std::string>& paths) {
  std::vector<Input> inputs;
  for (const std::string& path : paths) {
    if (path == "-") {
      inputs.push_back({path, {}});
      continue;
    }
    std::error_code error;
    auto status = fs::status(path, error);
    if (error || !fs::exists(status)) {
      inputs.push_back({path, "no such file or directory"});
      continue;
    }
    if (!fs::is_directory(status)) {
      inputs.push_back({path, {}});
      continue;
    }
    std::vector<std::string> found;
    fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, error);
    for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
      const fs::directory_entry& entry = *it;
      std::string name = entry.path().filename().string();
      if (entry.is_directory() && name.starts_with(".") && name != "." && name != "..") {
        it.disable_recursion_pending();
        continue;
      }
      if (entry.is_regular_file() && entry.path().extension() == ".ptx") {
        found.push_back(entry.path().generic_string());
      }
    }
    if (error) inputs.push_back({path, "cannot read directory: " + error.message()});
    std::sort(found.begin(), found.end());
    for (std::string& file : found) inputs.push_back({std::move(file), {}});
  }
  return inputs;
}

bool readWhole(const std::string& path, std::string& text, std::string& error) {
  if (path == "-") {
    std::ostringstream buffer;
    buffer << std::cin.rdbuf();
    text = std::move(buffer).str();
    return true;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open file";
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    error = "read error";
    return false;
  }
  text = std::move(buffer).str();
  return true;
}

// The options for one file: its project file's settings (if any) under the command line's.
class OptionsForFiles {
 public:
  explicit OptionsForFiles(const Options& options) : options_(options) {}

  LintOptions forFile(const std::string& path) {
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
    config::Settings settings;
    std::ifstream in(projectFile);
    std::stringstream contents;
    contents << in.rdbuf();
    auto json = nlohmann::json::parse(contents.str(), nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
    if (json.is_discarded()) {
      std::cerr << "ptxlint: " << projectFile.string() << ": not valid JSON; ignored\n";
    } else {
      for (const std::string& problem : config::mergeSettings(settings, json)) {
        std::cerr << "ptxlint: " << projectFile.string() << ": " << problem << "\n";
      }
    }
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
  std::mutex mutex_;
  std::map<std::string, LintOptions> cache_;
};

// `sarif`, when given, receives what SARIF output needs beyond the report (fixes, UTF-16 columns).
// `threads`: how many threads this file may use (a big file is then linted in parallel).
FileReport lintOne(const Input& input, OptionsForFiles& lintOptions, unsigned threads,
                   SarifFileDetails* sarif = nullptr) {
  if (!input.ioError.empty()) return {input.path, input.ioError, {}};
  std::string text;
  std::string error;
  if (!readWhole(input.path, text, error)) return {input.path, error, {}};
  LintOptions options = lintOptions.forFile(input.path);
  options.threads = threads;
  LintResult result = lintText(text, options);
  if (sarif != nullptr) *sarif = buildSarifDetails(text, result.diagnostics);
  return buildFileReport(input.path == "-" ? "<stdin>" : input.path, text, result.diagnostics);
}

std::vector<FileReport> lintAll(const std::vector<Input>& inputs, unsigned jobs, OptionsForFiles& lint,
                                std::vector<SarifFileDetails>* sarif = nullptr) {
  std::vector<FileReport> reports(inputs.size());
  if (sarif != nullptr) sarif->assign(inputs.size(), {});
  // One worker per core; with fewer files than cores, each file gets the spare cores as
  // threads of its own (LintOptions::threads: files over 1 MB are then linted in parallel).
  unsigned cores = jobs != 0 ? jobs : std::max(1u, std::thread::hardware_concurrency());
  auto workers = static_cast<unsigned>(std::min<std::size_t>(cores, std::max<std::size_t>(inputs.size(), 1)));
  unsigned threadsPerFile = std::max(1u, cores / workers);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < inputs.size(); i = next++) {
      reports[i] = lintOne(inputs[i], lint, threadsPerFile, sarif != nullptr ? &(*sarif)[i] : nullptr);
    }
  };
  std::vector<std::jthread> pool;
  for (unsigned w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  pool.clear();  // Joins.
  return reports;
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
  std::vector<SarifFileDetails> sarif;
  std::vector<FileReport> reports = lintAll(collectInputs(options.paths), options.jobs, lintOptions,
                                            options.format == Format::Sarif ? &sarif : nullptr);
  RunSummary summary = summarize(reports);
  if (options.format == Format::Json) {
    emitJson(std::cout, reports, summary, PTXLS_VERSION);
  } else if (options.format == Format::Sarif) {
    emitSarif(std::cout, reports, sarif, summary, PTXLS_VERSION);
  } else {
    emitText(std::cout, reports, summary);
  }
  std::cout.flush();
  if (summary.ioErrors > 0) return 2;
  return summary.diagnostics() > 0 ? 1 : 0;
}

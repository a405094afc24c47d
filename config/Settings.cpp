// Settings: parsing and merging the configuration sources.
#include "Settings.h"

#include <fstream>
#include <sstream>
#include <system_error>

#include "Registry.h"
#include "cuda/DevicePasses.h"

namespace ptx::config {
namespace {

using json = nlohmann::json;

std::optional<Severity> severityNamed(std::string_view name) {
  if (name == "error") return Severity::Error;
  if (name == "warning") return Severity::Warning;
  if (name == "info" || name == "information") return Severity::Information;
  if (name == "hint") return Severity::Hint;
  return std::nullopt;
}

// A rule's value: "off" | "on" | a severity name | {"enabled": bool, "severity": name}.
bool parseRuleValue(const json& value, RuleSetting& setting) {
  if (value.is_boolean()) {
    setting.enabled = value.get<bool>();
    return true;
  }
  if (value.is_string()) {
    std::string word = value.get<std::string>();
    if (word == "off" || word == "none") {
      setting.enabled = false;
      return true;
    }
    if (word == "on" || word == "default") {
      setting = RuleSetting{};
      return true;
    }
    if (auto severity = severityNamed(word)) {
      setting.enabled = true;
      setting.severity = severity;
      return true;
    }
    return false;
  }
  if (value.is_object()) {
    if (value.contains("enabled")) {
      if (!value["enabled"].is_boolean()) return false;
      setting.enabled = value["enabled"].get<bool>();
    }
    if (value.contains("severity")) {
      if (!value["severity"].is_string()) return false;
      auto severity = severityNamed(value["severity"].get<std::string>());
      if (!severity) return false;
      setting.severity = severity;
    }
    return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> mergeSettings(Settings& settings, const json& input) {
  std::vector<std::string> problems;
  if (input.is_null()) return problems;
  const json& object = input.is_object() && input.contains("ptxls") ? input["ptxls"] : input;
  if (!object.is_object()) {
    problems.push_back("settings must be a JSON object");
    return problems;
  }
  for (const auto& [key, value] : object.items()) {
    // The editor client's own settings (clients/vscode: how to start the server, tracing,
    // format on save) arrive in the same "ptxls" section; they are not the server's business.
    if (key == "server" || key == "trace" || key == "formatOnSave") continue;
    if (key == "target") {
      if (value.is_null()) {
        settings.target.reset();
      } else if (value.is_string() && value.get<std::string>().starts_with("sm_")) {
        settings.target = value.get<std::string>();
      } else {
        problems.push_back("'target' must be a target name such as \"sm_90a\"");
      }
    } else if (key == "rules") {
      if (!value.is_object()) {
        problems.push_back("'rules' must be an object mapping rule codes or names to settings");
        continue;
      }
      // Categories first ("isa": "warning"), then single rules, which refine them whatever
      // the order of the keys.
      for (bool categories : {true, false}) {
        for (const auto& [rule, ruleValue] : value.items()) {
          std::vector<std::string_view> codes;
          for (const RuleMeta& meta : allRules()) {
            if (toString(meta.category) == rule) codes.push_back(meta.code);
          }
          if (categories != !codes.empty()) continue;
          if (!categories) {
            const RuleMeta* meta = findRule(rule);
            if (meta == nullptr) {
              problems.push_back("unknown rule or category '" + rule + "' in 'rules'");
              continue;
            }
            codes.push_back(meta->code);
          }
          for (std::string_view code : codes) {
            RuleSetting setting = settings.rules[std::string(code)];
            if (!parseRuleValue(ruleValue, setting)) {
              problems.push_back("rule '" + rule + "': use \"off\", \"on\", a severity (error, warning, info, hint) or "
                                 "{\"enabled\", \"severity\"}");
              break;
            }
            settings.rules[std::string(code)] = setting;
          }
        }
      }
    } else if (key == "diagnostics") {
      if (value.is_object() && value.contains("maxFileMiB")) {
      const json& limit = value["maxFileMiB"];
      if (limit.is_number_unsigned() && limit.get<std::uint64_t>() >= 1 && limit.get<std::uint64_t>() <= 1024) {
        settings.maxAnalyzedBytes = static_cast<std::size_t>(limit.get<std::uint64_t>()) << 20;
      } else {
        problems.push_back("'diagnostics.maxFileMiB' must be an integer from 1 to 1024");
      }
    }
    if (value.is_object() && value.contains("debounceMs")) {
        const json& debounce = value["debounceMs"];
        if (debounce.is_number_integer() && debounce.get<long long>() >= 0 && debounce.get<long long>() <= 10000) {
          settings.debounce = std::chrono::milliseconds(debounce.get<long long>());
        } else {
          problems.push_back("'diagnostics.debounceMs' must be an integer from 0 to 10000");
        }
      }
    } else if (key == "inlayHints") {
      if (!value.is_object()) {
        problems.push_back("'inlayHints' must be an object");
        continue;
      }
      for (const auto& [option, optionValue] : value.items()) {
        if (option == "liveRegisters" && optionValue.is_boolean()) {
          settings.liveRegisterHints = optionValue.get<bool>();
        } else {
          problems.push_back("inlayHints option '" + option + "' is unknown or has a bad value");
        }
      }
    } else if (key == "registers") {
      if (!value.is_object()) {
        problems.push_back("'registers' must be an object");
        continue;
      }
      for (const auto& [option, optionValue] : value.items()) {
        if (option == "verifyWithPtxas" && optionValue.is_boolean()) {
          settings.verifyWithPtxas = optionValue.get<bool>();
        } else {
          problems.push_back("registers option '" + option + "' is unknown or has a bad value");
        }
      }
    } else if (key == "cuda") {
      if (!value.is_object()) {
        problems.push_back("'cuda' must be an object");
        continue;
      }
      for (const auto& [option, optionValue] : value.items()) {
        if (option == "exactMode" && optionValue.is_boolean()) {
          settings.cudaExactMode = optionValue.get<bool>();
          continue;
        }
        if (option != "arch" || !optionValue.is_array()) {
          problems.push_back("cuda option '" + option + "' is unknown or has a bad value");
          continue;
        }
        // Names nvcc 13 would reject are reported and left out; the others still count.
        std::vector<std::string> names;
        for (const json& name : optionValue) {
          if (!name.is_string()) {
            problems.push_back("'cuda.arch' must list architecture names such as \"sm_90a\"");
          } else if (std::string error = cuda::passesForArch(name.get<std::string>(), {}).error; !error.empty()) {
            problems.push_back("'cuda.arch': " + error);
          } else {
            names.push_back(name.get<std::string>());
          }
        }
        settings.cudaArch = std::move(names);
      }
    } else if (key == "format") {
      if (!value.is_object()) {
        problems.push_back("'format' must be an object");
        continue;
      }
      for (const auto& [option, optionValue] : value.items()) {
        if (option == "indentWidth" && optionValue.is_number_unsigned() && optionValue.get<unsigned>() <= 16) {
          settings.format.indentWidth = optionValue.get<unsigned>();
        } else if (option == "useTabs" && optionValue.is_boolean()) {
          settings.format.useTabs = optionValue.get<bool>();
        } else if (option == "maxBlankLines" && optionValue.is_number_unsigned()) {
          settings.format.maxBlankLines = optionValue.get<unsigned>();
        } else {
          problems.push_back("format option '" + option + "' is unknown or has a bad value");
        }
      }
    } else {
      problems.push_back("unknown setting '" + key + "'");
    }
  }
  return problems;
}

std::optional<std::filesystem::path> findProjectFile(const std::filesystem::path& document) {
  std::error_code error;
  std::filesystem::path folder = document.parent_path();
  for (int depth = 0; depth < 64 && !folder.empty(); ++depth) {
    std::filesystem::path candidate = folder / ".ptxls.json";
    if (std::filesystem::is_regular_file(candidate, error)) return candidate;
    std::filesystem::path parent = folder.parent_path();
    if (parent == folder) break;
    folder = parent;
  }
  return std::nullopt;
}

ProjectSettings loadProjectFile(const std::filesystem::path& file, Settings base) {
  ProjectSettings loaded{std::move(base), {}, {}};
  std::ifstream in(file);
  if (!in) {
    loaded.unusable = "cannot open file";
    return loaded;
  }
  std::stringstream contents;
  contents << in.rdbuf();
  json project = json::parse(contents.str(), nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
  if (project.is_discarded()) {
    loaded.unusable = "not valid JSON";
  } else if (!project.is_object()) {
    loaded.unusable = "not a JSON object";
  } else {
    bool exactMode = loaded.settings.cudaExactMode;
    loaded.problems = mergeSettings(loaded.settings, project);
    // Exact mode runs nvcc: only the user's own settings may ask for it, never a repository's.
    if (loaded.settings.cudaExactMode != exactMode ||
        (project.contains("cuda") && project["cuda"].is_object() && project["cuda"].contains("exactMode"))) {
      loaded.settings.cudaExactMode = exactMode;
      loaded.problems.push_back("'cuda.exactMode' is ignored in a project file (it runs nvcc: enable it in the editor's settings)");
    }
  }
  return loaded;
}

std::optional<std::filesystem::path> pathOfUri(std::string_view uri) {
  constexpr std::string_view kScheme = "file://";
  if (!uri.starts_with(kScheme)) return std::nullopt;
  std::string_view rest = uri.substr(kScheme.size());
  // file://host/path: only the local host is meaningful here.
  if (!rest.starts_with('/')) {
    auto slash = rest.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    rest = rest.substr(slash);
  }
  std::string decoded;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size()) {
      auto hex = [](char c) { return c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1; };
      int high = hex(rest[i + 1]);
      int low = hex(rest[i + 2]);
      if (high >= 0 && low >= 0) {
        decoded.push_back(static_cast<char>(high * 16 + low));
        i += 2;
        continue;
      }
    }
    decoded.push_back(rest[i]);
  }
  return std::filesystem::path(decoded);
}

LintOptions lintOptionsFor(const Settings& settings) {
  LintOptions options;
  // An editor holds the text, the tree and the model at once, and the rules' dataflow while
  // they run: past this size a document gets its syntax checked and its names resolved (for
  // navigation) but no rule, and keeps every edit; past four times it, no parse. ptxlint,
  // which holds one file at a time, allows 256 MiB.
  options.maxTextBytes = settings.maxAnalyzedBytes;
  options.rules = settings.rules;
  options.targetOverride = settings.target;
  return options;
}

}  // namespace ptx::config

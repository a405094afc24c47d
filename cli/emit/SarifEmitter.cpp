// SarifEmitter: a SARIF 2.1.0 log for code-scanning services (docs/sarif.md).
//
// One run. The driver describes every rule of the registry (Rules.def), in registry order, with
// its documentation, so that a viewer can explain results of rules that a later run reports.
// Output is deterministic: no timestamps, no absolute paths except the %SRCROOT% base.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "Registry.h"
#include "RuleDocs.h"
#include "emit/Emitter.h"
#include "text/LineIndex.h"

namespace ptx::cli {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr std::string_view kSchema = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr std::string_view kInformationUri = "https://github.com/ptxls/ptxls";
// The same pages the language server's diagnostics link to (server/Server.cpp, kRuleDocsBase).
constexpr std::string_view kRuleDocsBase = "https://github.com/ptxls/ptxls/blob/main/docs/rules/";
constexpr std::string_view kSourceRoot = "%SRCROOT%";
constexpr std::string_view kFingerprintKey = "ptxlint/v1";

// ---- Positions ------------------------------------------------------------------------------

// UTF-16 code units in `bytes`; each byte of an invalid UTF-8 sequence counts as one unit.
std::uint32_t utf16Units(std::string_view bytes) {
  std::uint32_t units = 0;
  for (std::size_t i = 0; i < bytes.size();) {
    auto lead = static_cast<unsigned char>(bytes[i]);
    std::size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
    bool valid = length > 0 && i + length <= bytes.size();
    for (std::size_t k = 1; valid && k < length; ++k) {
      valid = (static_cast<unsigned char>(bytes[i + k]) & 0xC0) == 0x80;
    }
    if (!valid) {
      ++units;
      ++i;
      continue;
    }
    units += length == 4 ? 2 : 1;
    i += length;
  }
  return units;
}

struct Positions {
  std::string_view text;
  LineIndex index;

  explicit Positions(std::string_view source) : text(source), index(source) {}

  std::pair<std::uint32_t, std::uint32_t> at(std::uint32_t offset) const {
    offset = std::min<std::uint32_t>(offset, static_cast<std::uint32_t>(text.size()));
    std::uint32_t line = index.lineOf(offset);
    std::uint32_t start = index.lineStart(line);
    return {line + 1, utf16Units(text.substr(start, offset - start)) + 1};
  }

  SarifRegion region(ByteRange range) const {
    auto [startLine, startColumn] = at(range.begin);
    auto [endLine, endColumn] = at(std::max(range.begin, range.end));
    return {startLine, startColumn, endLine, endColumn};
  }
};

std::string_view trim(std::string_view text) {
  constexpr std::string_view kBlank = " \t\r\n\f\v";
  std::size_t first = text.find_first_not_of(kBlank);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kBlank) - first + 1);
}

// ---- URIs -----------------------------------------------------------------------------------

// Percent-encodes everything but RFC 3986's unreserved characters and '/'.
std::string percentEncode(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(path.size());
  for (char c : path) {
    auto byte = static_cast<unsigned char>(c);
    bool keep = (byte >= 'A' && byte <= 'Z') || (byte >= 'a' && byte <= 'z') || (byte >= '0' && byte <= '9') ||
                c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (keep) {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    }
  }
  return out;
}

fs::path workingDirectoryOf(std::string_view given) {
  std::error_code error;
  fs::path directory = given.empty() ? fs::current_path(error) : fs::path(given);
  if (error) directory = "/";
  std::string text = directory.lexically_normal().generic_string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return fs::path(text);
}

// "file:///abs/dir/" for a directory.
std::string directoryUri(const fs::path& directory) {
  std::string path = directory.generic_string();
  if (path.empty() || path.back() != '/') path += '/';
  if (path.front() != '/') path.insert(path.begin(), '/');
  return "file://" + percentEncode(path);
}

// The artifactLocation of a reported path: relative to %SRCROOT% (the working directory) when
// the file lies below it, an absolute file URI otherwise, a description for standard input.
Json artifactLocation(const std::string& path, const fs::path& workingDirectory) {
  if (path == "<stdin>" || path == "-") return {{"description", {{"text", "standard input"}}}};
  fs::path given(path);
  fs::path absolute = given.is_absolute() ? given : workingDirectory / given;
  absolute = absolute.lexically_normal();
  fs::path relative = absolute.lexically_relative(workingDirectory);
  if (!relative.empty() && *relative.begin() != ".." && relative != ".") {
    return {{"uri", percentEncode(relative.generic_string())}, {"uriBaseId", kSourceRoot}};
  }
  std::string text = absolute.generic_string();
  if (text.empty() || text.front() != '/') text.insert(text.begin(), '/');
  return {{"uri", "file://" + percentEncode(text)}};
}

// ---- Rules ----------------------------------------------------------------------------------

std::string_view levelOf(Severity severity) {
  switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Information:
    case Severity::Hint: return "note";
  }
  return "error";
}

// The first paragraph of the documentation, without its "What it does:" label, on one line.
std::string fullDescriptionOf(std::string_view documentation, std::string_view summary) {
  std::string_view paragraph = trim(documentation);
  paragraph = paragraph.substr(0, paragraph.find("\n\n"));
  constexpr std::string_view kLabel = "What it does:";
  if (paragraph.starts_with(kLabel)) paragraph.remove_prefix(kLabel.size());
  std::string out;
  bool pendingSpace = false;
  for (char c : trim(paragraph)) {
    if (c == '\n' || c == '\r' || c == ' ' || c == '\t') {
      pendingSpace = !out.empty();
      continue;
    }
    if (pendingSpace) out += ' ';
    pendingSpace = false;
    out += c;
  }
  if (out.empty()) return std::string(summary);
  if (out.front() >= 'a' && out.front() <= 'z') out.front() = static_cast<char>(out.front() - 'a' + 'A');
  return out;
}

// A paragraph that opens with a short label ("Why is this bad:") gets the label in bold.
std::string boldLabel(std::string_view line) {
  std::size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 32) return std::string(line);
  if (!(line[0] >= 'A' && line[0] <= 'Z')) return std::string(line);
  for (char c : line.substr(0, colon)) {
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == ' ')) return std::string(line);
  }
  return "**" + std::string(line.substr(0, colon + 1)) + "**" + std::string(line.substr(colon + 1));
}

// The documentation as Markdown: lines indented by four spaces (the examples) become fenced
// PTX blocks, since an indented block cannot interrupt the "Example:" paragraph in CommonMark.
std::string markdownOf(std::string_view documentation) {
  std::string out;
  bool inCode = false;
  bool paragraphStart = true;
  while (!documentation.empty()) {
    std::size_t newline = documentation.find('\n');
    std::string_view line = documentation.substr(0, newline);
    documentation.remove_prefix(newline == std::string_view::npos ? documentation.size() : newline + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    bool code = line.starts_with("    ");
    if (code && !inCode) {
      if (!out.empty() && !out.ends_with("\n\n")) out += '\n';
      out += "```ptx\n";
      inCode = true;
    } else if (!code && inCode) {
      out += "```\n";
      inCode = false;
      if (!trim(line).empty()) out += '\n';
      paragraphStart = true;
    }
    if (code) {
      out += line.substr(4);
    } else if (trim(line).empty()) {
      paragraphStart = true;
    } else {
      out += paragraphStart ? boldLabel(line) : std::string(line);
      paragraphStart = false;
    }
    out += '\n';
  }
  if (inCode) out += "```\n";
  while (out.ends_with("\n")) out.pop_back();
  return out;
}

Json ruleDescriptor(const RuleMeta& rule) {
  std::string_view documentation = trim(ruleDocumentation(rule.code));
  std::string helpText = documentation.empty() ? std::string(rule.summary) : std::string(documentation);
  std::string helpMarkdown = documentation.empty() ? std::string(rule.summary) : markdownOf(documentation);
  return {
      {"id", rule.code},
      {"name", rule.name},
      {"shortDescription", {{"text", rule.summary}}},
      {"fullDescription", {{"text", fullDescriptionOf(documentation, rule.summary)}}},
      {"help", {{"text", helpText}, {"markdown", helpMarkdown}}},
      {"helpUri", std::string(kRuleDocsBase) + std::string(rule.code) + ".md"},
      {"defaultConfiguration", {{"level", levelOf(rule.defaultSeverity)}}},
      {"properties", {{"tags", Json::array({toString(rule.category)})}}},
  };
}

// ---- Results --------------------------------------------------------------------------------

Json regionJson(const SarifRegion& region) {
  return {{"startLine", region.startLine},
          {"startColumn", region.startColumn},
          {"endLine", region.endLine},
          {"endColumn", region.endColumn}};
}

SarifRegion regionOf(const SourcePosition& start, const SourcePosition& end) {
  return {start.line, start.column, end.line, end.column};
}

// FNV-1a, 64 bits: stable across platforms and releases, unlike std::hash.
std::string fingerprintHash(std::string_view rule, std::string_view lineText) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  auto feed = [&](std::string_view bytes) {
    for (char c : bytes) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 0x100000001b3ULL;
    }
  };
  feed(rule);
  feed(std::string_view("\0", 1));
  feed(lineText);
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(hash));
  return buffer;
}

}  // namespace

SarifFileDetails buildSarifDetails(std::string_view text, const std::vector<Diagnostic>& diagnostics) {
  SarifFileDetails details;
  if (diagnostics.empty()) return details;
  Positions positions(text);
  details.diagnostics.reserve(diagnostics.size());
  for (const Diagnostic& diagnostic : diagnostics) {
    SarifDiagnosticDetails out;
    out.region = positions.region(diagnostic.range);
    for (const RelatedInformation& related : diagnostic.related) out.related.push_back(positions.region(related.range));
    for (const Fix& fix : diagnostic.fixes) {
      SarifFix sarifFix{fix.title, {}};
      for (const FixEdit& edit : fix.edits) sarifFix.replacements.push_back({positions.region(edit.range), edit.newText});
      out.fixes.push_back(std::move(sarifFix));
    }
    std::uint32_t begin = std::min<std::uint32_t>(diagnostic.range.begin, static_cast<std::uint32_t>(text.size()));
    out.lineText = std::string(trim(positions.index.lineText(positions.index.lineOf(begin))));
    details.diagnostics.push_back(std::move(out));
  }
  return details;
}

void emitSarif(std::ostream& out, std::span<const FileReport> reports,
               std::span<const SarifFileDetails> details, const RunSummary& summary,
               std::string_view toolVersion, std::string_view workingDirectory) {
  fs::path directory = workingDirectoryOf(workingDirectory);

  Json rules = Json::array();
  std::map<std::string, std::size_t, std::less<>> ruleIndex;
  for (const RuleMeta& rule : allRules()) {
    ruleIndex.emplace(std::string(rule.code), rules.size());
    rules.push_back(ruleDescriptor(rule));
  }

  Json results = Json::array();
  Json notifications = Json::array();
  for (std::size_t file = 0; file < reports.size(); ++file) {
    const FileReport& report = reports[file];
    Json location = artifactLocation(report.path, directory);
    if (!report.ioError.empty()) {
      notifications.push_back({{"level", "error"},
                               {"message", {{"text", report.path + ": " + report.ioError}}},
                               {"locations", Json::array({{{"physicalLocation", {{"artifactLocation", location}}}}})}});
      continue;
    }
    const SarifFileDetails* fileDetails = file < details.size() && details[file].diagnostics.size() == report.diagnostics.size()
                                              ? &details[file]
                                              : nullptr;
    std::map<std::string, std::size_t> occurrences;  // (rule, line text) → findings so far.
    for (std::size_t i = 0; i < report.diagnostics.size(); ++i) {
      const ReportedDiagnostic& diagnostic = report.diagnostics[i];
      const SarifDiagnosticDetails* extra = fileDetails != nullptr ? &fileDetails->diagnostics[i] : nullptr;
      std::string lineText = extra != nullptr ? extra->lineText : std::string(trim(diagnostic.excerpt));
      SarifRegion region = extra != nullptr ? extra->region : regionOf(diagnostic.start, diagnostic.end);

      Json result = {{"ruleId", diagnostic.rule}};
      if (auto it = ruleIndex.find(diagnostic.rule); it != ruleIndex.end()) result["ruleIndex"] = it->second;
      result["level"] = levelOf(diagnostic.severity);
      result["message"] = {{"text", diagnostic.message}};
      result["locations"] = Json::array(
          {{{"physicalLocation", {{"artifactLocation", location}, {"region", regionJson(region)}}}}});

      if (!diagnostic.related.empty()) {
        Json related = Json::array();
        for (std::size_t r = 0; r < diagnostic.related.size(); ++r) {
          const ReportedRelated& item = diagnostic.related[r];
          SarifRegion relatedRegion = extra != nullptr && r < extra->related.size() ? extra->related[r]
                                                                                    : regionOf(item.start, item.end);
          related.push_back({{"id", r + 1},
                             {"message", {{"text", item.message}}},
                             {"physicalLocation", {{"artifactLocation", location}, {"region", regionJson(relatedRegion)}}}});
        }
        result["relatedLocations"] = std::move(related);
      }

      std::string key = diagnostic.rule + '\n' + lineText;
      std::size_t occurrence = ++occurrences[key];
      result["partialFingerprints"] = {
          {kFingerprintKey, fingerprintHash(diagnostic.rule, lineText) + ":" + std::to_string(occurrence)}};

      if (extra != nullptr && !extra->fixes.empty()) {
        Json fixes = Json::array();
        for (const SarifFix& fix : extra->fixes) {
          Json replacements = Json::array();
          for (const SarifReplacement& replacement : fix.replacements) {
            replacements.push_back({{"deletedRegion", regionJson(replacement.deleted)},
                                    {"insertedContent", {{"text", replacement.insertedText}}}});
          }
          if (replacements.empty()) continue;
          fixes.push_back({{"description", {{"text", fix.description}}},
                           {"artifactChanges", Json::array({{{"artifactLocation", location},
                                                             {"replacements", std::move(replacements)}}})}});
        }
        if (!fixes.empty()) result["fixes"] = std::move(fixes);
      }
      results.push_back(std::move(result));
    }
  }

  Json invocation = {{"executionSuccessful", summary.ioErrors == 0}};
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = std::move(notifications);

  Json run = {
      {"tool",
       {{"driver",
         {{"name", "ptxlint"},
          {"version", toolVersion},
          {"informationUri", kInformationUri},
          {"rules", std::move(rules)}}}}},
      {"invocations", Json::array({std::move(invocation)})},
      {"originalUriBaseIds", {{kSourceRoot, {{"uri", directoryUri(directory)}}}}},
      {"columnKind", "utf16CodeUnits"},
      {"results", std::move(results)},
  };
  Json log = {{"$schema", kSchema}, {"version", "2.1.0"}, {"runs", Json::array({std::move(run)})}};
  // Invalid UTF-8 in messages or source lines must not abort output.
  out << log.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace ptx::cli

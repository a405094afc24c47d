// ExactDiagnostics: what nvcc and ptxas say about a CUDA source, at its own lines.
#include "ExactDiagnostics.h"

#include <filesystem>
#include <optional>
#include <set>
#include <tuple>

#include "PtxLineMap.h"
#include "Registry.h"
#include "RuleContext.h"
#include "cuda/CppLexer.h"
#include "cuda/Preprocessor.h"
#include "text/LineIndex.h"

namespace ptx::oracle {
namespace {

namespace fs = std::filesystem;

// The line's text without its leading and trailing blanks; an empty range at the line start
// when the line is out of range.
ByteRange lineRange(std::string_view text, const LineIndex& lines, std::uint32_t oneBasedLine) {
  if (oneBasedLine == 0 || oneBasedLine > lines.lineCount()) return {0, 0};
  std::uint32_t start = lines.lineStart(oneBasedLine - 1);
  std::string_view line = lines.lineText(oneBasedLine - 1);
  std::uint32_t begin = 0, end = static_cast<std::uint32_t>(line.size());
  while (begin < end && (line[begin] == ' ' || line[begin] == '\t')) ++begin;
  while (end > begin && (line[end - 1] == ' ' || line[end - 1] == '\t' || line[end - 1] == '\r')) --end;
  (void)text;
  return {start + begin, start + end};
}

bool sameFile(const std::string& a, const fs::path& b) {
  std::error_code error;
  return fs::equivalent(fs::path(a), b, error);
}

Diagnostic make(std::string_view code, Severity severity, ByteRange range, std::string message) {
  const RuleMeta* meta = findRule(code);
  Diagnostic diagnostic;
  diagnostic.rule = std::string(code);
  diagnostic.severity = severity;
  diagnostic.category = meta ? meta->category : Category::InlineAsm;
  diagnostic.range = range;
  diagnostic.message = std::move(message);
  return diagnostic;
}

Severity severityOf(std::string_view word) {
  if (word == "warning") return Severity::Warning;
  if (word == "remark") return Severity::Information;
  return Severity::Error;
}

}  // namespace

ExactReport runExactMode(std::string_view text, const ExactRequest& request) {
  ExactReport report;
  std::vector<Diagnostic>& out = report.diagnostics;
  std::vector<std::string>& problems = report.problems;
  std::error_code error;
  fs::path file = fs::absolute(request.file, error);
  std::vector<cuda::DevicePass>& passes = report.passes;
  passes = request.passes;
  if (passes.empty()) passes = cuda::defaultPasses(cuda::guardArchitectures(cuda::LexedSource(text)));
  std::vector<NvccPassRequest> requests;
  for (const cuda::DevicePass& pass : passes) requests.push_back({pass.virtualArch, pass.ptxTarget()});
  ExactOptions options = request.options;
  if (!request.workingDirectory.empty()) options.workingDirectory = request.workingDirectory;
  report.result = compileForPasses(file, request.flags, requests, options);
  const ExactResult& result = report.result;
  if (!result.error.empty()) {
    problems.push_back(result.error);
    return report;
  }
  LineIndex lines(text);
  AsmSourceIndex index(text);
  std::set<std::tuple<std::uint32_t, std::string, std::string>> seen;
  auto add = [&](Diagnostic diagnostic) {
    if (seen.insert({diagnostic.range.begin, diagnostic.rule, diagnostic.message}).second) out.push_back(std::move(diagnostic));
  };
  for (std::size_t p = 0; p < result.passes.size() && p < passes.size(); ++p) {
    const ExactPass& pass = result.passes[p];
    std::string passName = passes[p].describe();
    if (!pass.error.empty()) problems.push_back(passName + ": " + pass.error);
    for (const CompilerDiagnostic& diagnostic : pass.nvccDiagnostics) {
      if (!sameFile(diagnostic.file, file) || diagnostic.severity == "remark") continue;
      add(make("NVC001", severityOf(diagnostic.severity), lineRange(text, lines, diagnostic.line),
               concat({"nvcc (", passName, "): ", diagnostic.message})));
    }
    // A ptxas error without a line (the fatal "32-Bit ABI ..." after its warning "Program uses
    // 32-bit address on line 'N'") is placed where the pass's first located message is.
    std::optional<ByteRange> firstLocated;
    for (const PtxasDiagnostic& diagnostic : pass.ptxasDiagnostics) {
      if (diagnostic.source.line != 0 && sameFile(diagnostic.source.file, file) && !firstLocated)
        firstLocated = lineRange(text, lines, diagnostic.source.line);
    }
    for (const PtxasDiagnostic& diagnostic : pass.ptxasDiagnostics) {
      bool here = diagnostic.source.line != 0 && sameFile(diagnostic.source.file, file);
      if (diagnostic.source.line != 0 && !here) continue;
      ByteRange range = here ? lineRange(text, lines, diagnostic.source.line) : firstLocated.value_or(ByteRange{0, 0});
      add(make("NVC002", diagnostic.severity == "warning" ? Severity::Warning : Severity::Error, range,
               concat({"ptxas (", passName, "): ", diagnostic.message})));
    }
    if (pass.ptx.empty()) continue;
    // The PTX's own findings, where they map to this file.
    PtxLineMap map(pass.ptx);
    LineIndex ptxLines(pass.ptx);
    LintOptions lint = request.lint;
    lint.targetOverride.reset();
    for (const Diagnostic& finding : lintText(pass.ptx, lint).diagnostics) {
      if (finding.severity > Severity::Warning) continue;
      SourceLocation at = locateInSource(map.mapPtxLine(ptxLines.lineOf(finding.range.begin) + 1), &index);
      if (at.line == 0 || !sameFile(at.file, file)) continue;
      Diagnostic mapped = finding;
      mapped.range = lineRange(text, lines, at.line);
      mapped.related.clear();
      mapped.fixes.clear();
      mapped.message = concat({finding.message, " (in the PTX of ", passName, ")"});
      add(std::move(mapped));
    }
  }
  return report;
}

}  // namespace ptx::oracle

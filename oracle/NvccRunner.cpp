// NvccRunner: see NvccRunner.h.
#include "NvccRunner.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <fstream>
#include <future>
#include <memory>
#include <sstream>
#include <system_error>
#include <unistd.h>

#include "Process.h"

namespace ptx::oracle {
namespace {

namespace fs = std::filesystem;

// Sources larger than this are not read for mapping (their errors keep the `.loc` line).
constexpr std::uintmax_t kMaxSourceBytes = 64u * 1024 * 1024;

bool isExecutable(const fs::path& path) { return ::access(path.c_str(), X_OK) == 0; }

bool contains(std::span<const std::string_view> set, std::string_view value) {
  return std::find(set.begin(), set.end(), value) != set.end();
}

// Flags dropped together with their value (`-o x` or `-o=x`): targets and outputs.
constexpr std::array<std::string_view, 19> kDroppedWithValue = {
    "-arch", "--gpu-architecture", "-code", "--gpu-code", "-gencode", "--generate-code", "-o", "--output-file",
    "-MF", "--dependency-output", "-MT", "--dependency-target-name", "-MQ", "-odir", "--output-directory",
    "-keep-dir", "--keep-dir", "-time", "--time"};
// Flags dropped alone: other output kinds, dependency generation, linking, --dryrun, -v.
constexpr std::array<std::string_view, 44> kDropped = {
    "-c", "--compile", "-ptx", "--ptx", "-cubin", "--cubin", "-fatbin", "--fatbin", "-E", "--preprocess", "-M",
    "--generate-dependencies", "-MM", "--generate-nonsystem-dependencies", "-MD",
    "--generate-dependencies-with-compile", "-MMD", "--generate-nonsystem-dependencies-with-compile", "-MP",
    "--generate-dependency-targets", "-dc", "--device-c", "-dw", "--device-w", "-dlink", "--device-link", "-lib",
    "--lib", "-link", "--link", "-run", "--run", "-cuda", "--cuda", "-dryrun", "--dryrun", "-keep", "--keep",
    "-save-temps", "--save-temps", "-v", "--verbose", "-dlto", "--dlink-time-opt"};
// Flags kept with their value, which may itself look like a flag (`-Xptxas -v`).
constexpr std::array<std::string_view, 20> kKeptWithValue = {
    "-Xcompiler", "--compiler-options", "-Xptxas", "--ptxas-options", "-Xnvlink", "--nvlink-options",
    "-Xlinker", "--linker-options", "-Xcudafe", "-Xarchive", "--archive-options", "-Xfatbin", "--fatbin-options",
    "-I", "-D", "-U", "-include", "-isystem", "-ccbin", "--compiler-bindir"};

std::string_view trimEnd(std::string_view text) {
  while (!text.empty() && (text.back() == '\r' || text.back() == ' ')) text.remove_suffix(1);
  return text;
}

// "SEVERITY   : message" → {severity, message}; the severity is one or two lowercase words.
std::optional<std::pair<std::string, std::string>> severityAndMessage(std::string_view text) {
  std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  std::string_view head = trimEnd(text.substr(0, colon));
  if (head.empty() || head.find_first_not_of("abcdefghijklmnopqrstuvwxyz ") != std::string_view::npos) return std::nullopt;
  std::string_view message = text.substr(colon + 1);
  if (message.starts_with(' ')) message.remove_prefix(1);
  return std::pair{std::string(head), std::string(trimEnd(message))};
}

template <typename Visit>
void forEachLine(std::string_view text, Visit visit) {
  while (!text.empty()) {
    std::size_t newline = text.find('\n');
    visit(trimEnd(text.substr(0, newline)));
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
  }
}

std::optional<std::string> readFile(const fs::path& path) {
  std::error_code error;
  auto size = fs::file_size(path, error);
  if (error || size > kMaxSourceBytes) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return std::move(text).str();
}

// compute_90a → sm_90a.
std::string defaultTarget(std::string_view virtualArch) {
  if (virtualArch.starts_with("compute_")) return "sm_" + std::string(virtualArch.substr(8));
  return std::string(virtualArch);
}

bool isArchName(std::string_view name) {
  return !name.empty() && name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string_view::npos;
}

std::string seconds(std::chrono::seconds timeout) { return std::to_string(timeout.count()) + " s"; }

ExactPass runPass(const std::string& nvcc, const std::string& ptxas, const fs::path& cuFile,
                  const std::vector<std::string>& flags, NvccPassRequest request, const fs::path& ptxPath,
                  const fs::path& directory, const ExactOptions& options) {
  ExactPass pass;
  if (request.ptxTarget.empty()) request.ptxTarget = defaultTarget(request.virtualArch);
  pass.pass = request;
  // Names go into one -gencode value: a comma or '=' would add options nobody asked for. A
  // compute_XX target has ptxas check the PTX without generating code (what nvcc does for a
  // PTX-only pass).
  bool target = request.ptxTarget.starts_with("sm_") || request.ptxTarget.starts_with("compute_");
  if (!request.virtualArch.starts_with("compute_") || !isArchName(request.virtualArch) || !target ||
      !isArchName(request.ptxTarget)) {
    pass.error = "not a device pass: " + request.virtualArch + " for " + request.ptxTarget;
    return pass;
  }
  std::vector<std::string> args = {nvcc, "-ptx", "-lineinfo"};
  bool hasLanguage = std::find(flags.begin(), flags.end(), "-x") != flags.end();
  if (cuFile.extension() != ".cu" && !hasLanguage) args.insert(args.end(), {"-x", "cu"});
  args.insert(args.end(), flags.begin(), flags.end());
  args.insert(args.end(), {"-gencode", "arch=" + request.virtualArch + ",code=" + request.virtualArch, "-o",
                           ptxPath.string(), cuFile.string()});
  ProcessResult compiled = runProcess(args, options.timeout, options.workingDirectory);
  if (!compiled.started) {
    pass.error = compiled.error;
    return pass;
  }
  if (compiled.timedOut) {
    pass.error = "nvcc ran past " + seconds(options.timeout) + " and was stopped";
    return pass;
  }
  pass.nvccExitCode = compiled.exitCode;
  pass.nvccOutput = std::move(compiled.output);
  pass.nvccDiagnostics = parseNvccDiagnostics(pass.nvccOutput, directory);
  pass.ptx = readFile(ptxPath).value_or("");
  if (pass.ptx.empty()) {
    pass.error = "nvcc wrote no PTX (exit status " + std::to_string(pass.nvccExitCode) + ")";
    return pass;
  }
  std::vector<std::string> assemble = {ptxas, "-v", "--gpu-name", request.ptxTarget, "-o", "/dev/null", ptxPath.string()};
  ProcessResult assembled = runProcess(assemble, options.timeout);
  if (!assembled.started) {
    pass.error = assembled.error;
    return pass;
  }
  if (assembled.timedOut) {
    pass.error = "ptxas ran past " + seconds(options.timeout) + " and was stopped";
    return pass;
  }
  pass.ptxasExitCode = assembled.exitCode;
  pass.ptxasDiagnostics = parsePtxasDiagnostics(assembled.output);
  if (pass.ptxasExitCode == 0) pass.functions = parsePtxasReport(assembled.output);
  return pass;
}

// Maps each pass's ptxas lines through its PTX to the sources, reading each source once. A
// relative `.file` path is nvcc's working directory's.
void mapToSources(std::vector<ExactPass>& passes, const fs::path& directory) {
  std::map<std::string, std::unique_ptr<AsmSourceIndex>, std::less<>> sources;
  for (ExactPass& pass : passes) {
    if (pass.ptxasDiagnostics.empty()) continue;
    PtxLineMap lines(pass.ptx);
    for (PtxasDiagnostic& diagnostic : pass.ptxasDiagnostics) {
      PtxLineLocation at = lines.mapPtxLine(diagnostic.ptxLine);
      if (!at.file.empty() && fs::path(at.file).is_relative()) at.file = (directory / at.file).lexically_normal().string();
      const AsmSourceIndex* source = nullptr;
      if (at.insideInlineAsm && !at.file.empty()) {
        auto found = sources.find(at.file);
        if (found == sources.end()) {
          auto text = readFile(at.file);
          found = sources.emplace(at.file, text ? std::make_unique<AsmSourceIndex>(*text) : nullptr).first;
        }
        source = found->second.get();
      }
      diagnostic.source = locateInSource(at, source);
    }
  }
}

}  // namespace

std::optional<std::string> findNvcc() { return findCudaTool("nvcc", "NVCC"); }

std::vector<std::string> flagsForPtx(std::span<const std::string> arguments, const fs::path& cuFile,
                                     const fs::path& workingDirectory) {
  std::vector<std::string> kept;
  std::error_code error;
  fs::path base = workingDirectory.empty() ? fs::current_path(error) : workingDirectory;
  fs::path source = (base / cuFile).lexically_normal();
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if (i == 0 && fs::path(argument).filename().string().starts_with("nvcc")) continue;  // The compiler.
    std::string_view name = std::string_view(argument).substr(0, argument.find('='));
    if (contains(kDroppedWithValue, argument)) {
      ++i;
      continue;
    }
    if (contains(kDroppedWithValue, name) || contains(kDropped, argument)) continue;
    if (contains(kKeptWithValue, argument) && i + 1 < arguments.size()) {
      kept.push_back(argument);
      kept.push_back(arguments[++i]);
      continue;
    }
    if (!argument.starts_with('-') && (base / argument).lexically_normal() == source) continue;
    kept.push_back(argument);
  }
  return kept;
}

std::vector<CompilerDiagnostic> parseNvccDiagnostics(std::string_view output, const fs::path& directory) {
  std::vector<CompilerDiagnostic> diagnostics;
  forEachLine(output, [&](std::string_view line) {
    if (line.empty() || line.front() == ' ') return;  // Source excerpts and carets are indented.
    if (line.starts_with("nvcc ")) {
      if (auto parts = severityAndMessage(line.substr(5))) {
        diagnostics.push_back({"", 0, parts->first, parts->second});
      }
      return;
    }
    // FILE(LINE): SEVERITY[ #NUMBER[-D]]: MESSAGE
    std::size_t close = line.find("): ");
    while (close != std::string_view::npos) {
      std::size_t open = line.rfind('(', close);
      std::uint32_t number = 0;
      bool located = open != std::string_view::npos && open > 0;
      if (located) {
        auto [end, error] = std::from_chars(line.data() + open + 1, line.data() + close, number);
        located = error == std::errc() && end == line.data() + close;
      }
      if (located) {
        std::string_view rest = line.substr(close + 3);
        std::size_t colon = rest.find(':');
        std::string_view head = rest.substr(0, colon);  // "warning #177-D"
        std::string severity(head.substr(0, head.find(" #")));
        static constexpr std::array<std::string_view, 6> kSeverities = {"error", "warning", "remark", "note",
                                                                        "catastrophic error", "internal error"};
        if (colon != std::string_view::npos && contains(kSeverities, severity)) {
          std::string_view message = rest.substr(colon + 1);
          if (message.starts_with(' ')) message.remove_prefix(1);
          fs::path file(std::string(line.substr(0, open)));
          if (file.is_relative()) file = (directory / file).lexically_normal();
          diagnostics.push_back({file.string(), number, severity, std::string(message)});
        }
        return;
      }
      close = line.find("): ", close + 1);
    }
  });
  return diagnostics;
}

std::vector<PtxasDiagnostic> parsePtxasDiagnostics(std::string_view output) {
  std::vector<PtxasDiagnostic> diagnostics;
  forEachLine(output, [&](std::string_view line) {
    if (!line.starts_with("ptxas ")) return;
    line.remove_prefix(6);
    PtxasDiagnostic diagnostic;
    // "PATH, line N; SEVERITY : MESSAGE", or "SEVERITY : MESSAGE" for what has no line.
    if (std::size_t at = line.find(", line "); at != std::string_view::npos) {
      std::string_view rest = line.substr(at + 7);
      auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), diagnostic.ptxLine);
      std::string_view after = rest.substr(static_cast<std::size_t>(end - rest.data()));
      if (error == std::errc() && after.starts_with("; ")) line = after.substr(2);
    }
    auto parts = severityAndMessage(line);
    if (!parts || parts->first == "info") return;
    diagnostic.severity = parts->first;
    diagnostic.message = parts->second;
    // "ptxas warning : Program uses 32-bit address on line '57' which ..." names its line inside.
    if (std::size_t at = diagnostic.message.find(" on line '"); diagnostic.ptxLine == 0 && at != std::string::npos) {
      std::string_view number = std::string_view(diagnostic.message).substr(at + 10);
      std::uint32_t value = 0;
      auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
      if (error == std::errc() && end < number.data() + number.size() && *end == '\'') diagnostic.ptxLine = value;
    }
    diagnostics.push_back(std::move(diagnostic));
  });
  return diagnostics;
}

ExactResult compileForPasses(const fs::path& cuFile, std::span<const std::string> userFlags,
                             std::span<const NvccPassRequest> passes, const ExactOptions& options) {
  ExactResult result;
  std::string nvcc = options.nvcc.empty() ? findNvcc().value_or("") : options.nvcc;
  if (nvcc.empty()) {
    result.error = "nvcc not found (set $NVCC or $CUDA_HOME, or put it on $PATH)";
    return result;
  }
  std::string ptxas = options.ptxas;
  if (ptxas.empty()) {
    fs::path beside = fs::path(nvcc).parent_path() / "ptxas";
    ptxas = isExecutable(beside) ? beside.string() : findPtxas().value_or("");
  }
  if (ptxas.empty()) {
    result.error = "ptxas not found (set $PTXAS or $CUDA_HOME, or put it on $PATH)";
    return result;
  }
  TemporaryDirectory scratch;
  if (scratch.path().empty()) {
    result.error = "cannot create a temporary directory for nvcc's PTX";
    return result;
  }
  std::error_code error;
  fs::path directory = options.workingDirectory.empty() ? fs::current_path(error) : fs::absolute(options.workingDirectory, error);
  std::vector<std::string> flags = flagsForPtx(userFlags, cuFile, options.workingDirectory);
  fs::path scratchPath = fs::absolute(scratch.path(), error);
  std::vector<std::future<ExactPass>> running;
  for (std::size_t i = 0; i < passes.size(); ++i) {
    fs::path ptxPath = scratchPath / (std::to_string(i) + "-" + cuFile.stem().string() + ".ptx");
    // Passes run side by side; where no thread can be started, one after another.
    running.push_back(std::async(std::launch::async | std::launch::deferred, runPass, std::cref(nvcc), std::cref(ptxas), std::cref(cuFile),
                                 std::cref(flags), passes[i], ptxPath, std::cref(directory), std::cref(options)));
  }
  for (auto& pass : running) result.passes.push_back(pass.get());
  mapToSources(result.passes, directory);
  return result;
}

}  // namespace ptx::oracle

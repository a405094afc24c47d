// CudaExactMode: an exact-mode job, and the Server's side of cuda.exactMode — when a
// run is queued, where its result is kept, and how it reaches the client (diagnostics merged
// with the inline-asm ones, kernel code lenses).
#include "CudaExactMode.h"

#include <fstream>
#include <iterator>

#include "LspJson.h"
#include "Server.h"
#include "features/CudaKernelLenses.h"

namespace ptx::lsp {

using json = nlohmann::json;

namespace {

// Whether the file at `path` holds exactly `text` (nvcc would compile something else otherwise).
bool fileHolds(const std::filesystem::path& path, std::string_view text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string contents((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return contents == text;
}

}  // namespace

std::uint64_t exactTextHash(std::string_view text) { return std::hash<std::string_view>{}(text); }

std::optional<oracle::ExactReport> runExactModeJob(const ExactModeJob& job) {
  if (!fileHolds(job.request.file, *job.text)) return std::nullopt;
  oracle::ExactReport report = oracle::runExactMode(*job.text, job.request);
  for (oracle::ExactPass& pass : report.result.passes) {
    pass.ptx.clear();
    pass.nvccOutput.clear();
  }
  return report;
}

// cuda.exactMode: `wanted` marks the document (open, save); the run is queued when the newest
// version has a full analysis (an incremental one is followed by a full one), so it is called
// again from onAnalysis. Nothing happens unless the client's settings enabled exact mode: a
// project file cannot (config::loadProjectFile keeps the client's value).
void Server::requestExactMode(const std::string& uri, bool wanted) {
  std::optional<std::filesystem::path> path = config::pathOfUri(uri);
  if (!path) return;  // nvcc compiles a file: an untitled buffer has none.
  std::shared_ptr<const Analysis> analysis;
  Settings settings;
  {
    std::lock_guard lock(sessionsMutex_);
    auto session = sessions_.find(uri);
    if (session == sessions_.end() || !session->second.cuda || !session->second.settings.cudaExactMode) return;
    session->second.exactWanted = session->second.exactWanted || wanted;
    Scheduler::View view = scheduler_->view(uri);
    if (!session->second.exactWanted || !view.full || view.full->version != view.version || !view.full->cuda) return;
    analysis = view.full;
    session->second.exactWanted = false;
    session->second.exact = ExactModeRun{analysis->version, exactTextHash(*analysis->text), false, nullptr};
    settings = session->second.settings;
  }
  CudaSetup setup = cudaSetups_.setupFor(uri, settings.cudaArch);
  ExactModeJob job{uri, analysis->version, analysis->text, {}};
  job.request.file = *path;
  job.request.passes = analysis->cuda->passes;
  job.request.flags = std::move(setup.nvccArguments);
  job.request.workingDirectory = setup.nvccDirectory;
  job.request.lint = config::lintOptionsFor(settings);
  job.request.options.timeout = kPtxasTimeout;
  exactMode_.push(std::move(job));
}

void Server::finishExactMode(const ExactModeJob& job, std::optional<oracle::ExactReport> report) {
  if (!report) log(3, job.uri + ": exact mode skipped: the file on disk differs from the editor's text (not saved)");
  if (report) {
    for (const std::string& problem : report->problems) log(2, job.uri + ": exact mode: " + problem);
  }
  std::shared_ptr<const Analysis> analysis;
  {
    std::lock_guard lock(sessionsMutex_);
    auto session = sessions_.find(job.uri);
    if (session == sessions_.end()) return;
    std::optional<ExactModeRun>& run = session->second.exact;
    if (!run || run->done || run->version != job.version || run->textHash != exactTextHash(*job.text)) return;
    run->done = true;
    if (report) run->report = std::make_shared<const oracle::ExactReport>(std::move(*report));
    Scheduler::View view = scheduler_->view(job.uri);
    if (view.full && view.full->version == job.version) analysis = view.full;
  }
  if (!analysis) return;  // Edited meanwhile: the result is already stale.
  if (pushDiagnostics_) {
    publishDiagnostics(job.uri, *analysis);
  } else if (diagnosticRefreshSupported_) {
    sendRequest("workspace/diagnostic/refresh", nullptr);
  }
  if (codeLensRefreshSupported_) sendRequest("workspace/codeLens/refresh", nullptr);
}

std::shared_ptr<const oracle::ExactReport> Server::exactReportFor(const std::string& uri, const Analysis& analysis) {
  std::lock_guard lock(sessionsMutex_);
  auto session = sessions_.find(uri);
  if (session == sessions_.end() || !session->second.settings.cudaExactMode) return nullptr;
  const std::optional<ExactModeRun>& run = session->second.exact;
  if (!run || !run->done || run->version != analysis.version || run->textHash != exactTextHash(*analysis.text)) {
    return nullptr;
  }
  return run->report;
}

void Server::didSave(const json& params) { requestExactMode(documentUri(params), true); }

json Server::cudaCodeLenses(const Analysis& analysis, const json& params) {
  json result = json::array();
  std::shared_ptr<const oracle::ExactReport> report = exactReportFor(documentUri(params), analysis);
  if (!report || !analysis.cuda) return result;
  cuda::CudaOutline outline = cuda::outlineOf(analysis.cuda->tree, *analysis.text);
  // Figures only: the lens has nothing to run ("" is a title-only command).
  for (const KernelLens& lens : kernelRegisterLenses(outline, *report)) {
    result.push_back({{"range", rangeJson(analysis, lens.range, encoding_)},
                      {"command", {{"title", lens.title}, {"command", ""}, {"arguments", {lens.kernel}}}}});
  }
  return result;
}

}  // namespace ptx::lsp

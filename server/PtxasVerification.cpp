// PtxasVerification: the verify code lens's ptxas -v runs (ptxls.server.verifyRegisters and the
// setting registers.verifyWithPtxas) — queued from the reading thread or after an analysis, run
// one at a time on the verifier thread, kept in the document's Session by version and target.
#include <utility>

#include "LspJson.h"
#include "Server.h"
#include "features/CodeLenses.h"
#include "registers/RegisterReport.h"

namespace ptx::lsp {
namespace {

using json = nlohmann::json;

// A finished ptxas -v run, as ptxls.server.verifyRegisters answers it.
json verificationJson(const PtxasVerification& verification) {
  json functions = json::array();
  for (const auto& [name, function] : verification.result.functions) {
    functions.push_back({{"name", name},
                         {"registers", function.registers},
                         {"spillStores", function.spillStores},
                         {"spillLoads", function.spillLoads}});
  }
  return {{"version", verification.version},
          {"target", verification.target},
          {"error", verification.result.error.empty() ? json(nullptr) : json(verification.result.error)},
          {"functions", std::move(functions)}};
}

}  // namespace

// arguments: [URI, FUNCTION] (the verify lens's). ptxas -v runs on the text of the document's
// newest analysis, for the target its lenses report (registers::reportTarget with the settings'
// override), on the verifier thread: this reading thread only queues it, so typing and other
// requests go on while ptxas works (up to kPtxasTimeout). The request is answered from the
// verifier thread when ptxas is done — a client may show its progress, and one that cannot
// refresh code lenses still gets the figures — and the result is kept in the session for that
// version and target, where the verify lenses read it. Asking again for the same version and
// target joins the run under way or gets the stored result at once.
std::optional<json> Server::verifyRegisters(const json& id, const json& arguments) {
  if (!arguments.is_array() || arguments.empty() || !arguments[0].is_string()) {
    throw InvalidParams{std::string(kVerifyRegistersCommand) + " needs the document's URI (and the function's name)"};
  }
  if (!ptxas_) throw RequestFailed{"ptxas was not found (set PTXAS or CUDA_HOME, or put it on PATH)"};
  std::string uri = arguments[0].get<std::string>();
  VerifyJob job;
  {
    std::lock_guard lock(sessionsMutex_);
    Scheduler::View view = scheduler_->view(uri);
    if (!view.open) throw InvalidParams{"document is not open: " + uri};
    // The newest analysis: its text and version belong together. When the document was edited
    // since, its result is stale at once and the lenses, asked again after that edit, offer a
    // new run.
    std::shared_ptr<const Analysis> analysis = view.latest;
    if (!analysis) throw RequestFailed{"the document has not been analyzed yet"};
    if (analysis->cuda) throw RequestFailed{"ptxas -v checks PTX documents; this one is CUDA C++"};
    Session& session = sessions_[uri];
    std::string target = registers::reportTarget(analysis->result.module, session.settings.target);
    if (!target.starts_with("sm_")) {
      throw RequestFailed{"ptxas assembles for an sm_XX target; this module's is " +
                          (target.empty() ? std::string("not given") : target)};
    }
    std::optional<PtxasVerification>& verification = session.verification;
    if (verification && verification->version == analysis->version && verification->target == target) {
      if (verification->done) return verificationJson(*verification);
      verification->waiting.push_back(id);
      return std::nullopt;
    }
    // A run for another version or target is superseded; its waiting requests get this one's result.
    std::vector<json> waiting = verification ? std::move(verification->waiting) : std::vector<json>();
    waiting.push_back(id);
    verification = PtxasVerification{analysis->version, target, false, {}, std::move(waiting)};
    job = {uri, analysis->version, target, analysis->text};
  }
  verifier_.push(std::move(job));  // Supersedes a queued run of the document (its requests moved here).
  return std::nullopt;
}

// registers.verifyWithPtxas: the verify lenses show ptxas's figure without a click. Only a full
// analysis of the newest version is verified (an incremental one is followed by a full one), on
// the verifier thread like the command's runs; a queued run of an older version is replaced. A
// run for this version and target already there (asked for, or after an earlier full analysis
// under other settings) is not repeated.
void Server::verifyAutomatically(const std::string& uri, const Analysis& analysis) {
  if (!ptxas_ || !analysis.isFull() || analysis.cuda) return;  // ptxas reads PTX documents only.
  VerifyJob job;
  {
    std::lock_guard lock(sessionsMutex_);
    Scheduler::View view = scheduler_->view(uri);
    if (!view.open || analysis.version != view.version) return;
    auto session = sessions_.find(uri);
    if (session == sessions_.end() || !session->second.settings.verifyWithPtxas) return;
    std::string target = registers::reportTarget(analysis.result.module, session->second.settings.target);
    if (!target.starts_with("sm_")) return;  // ptxas needs one; the command says so when asked.
    std::optional<PtxasVerification>& verification = session->second.verification;
    if (verification && verification->version == analysis.version && verification->target == target) return;
    std::vector<json> waiting = verification ? std::move(verification->waiting) : std::vector<json>();
    verification = PtxasVerification{analysis.version, target, false, {}, std::move(waiting)};
    job = {uri, analysis.version, target, analysis.text};
  }
  verifier_.push(std::move(job));  // Supersedes a queued run of the document (its requests moved here).
}

void Server::finishVerification(const VerifyJob& job, oracle::PtxasResult result) {
  std::vector<json> waiting;
  json answer;
  {
    std::lock_guard lock(sessionsMutex_);
    auto session = sessions_.find(job.uri);
    // Closed, or superseded by a run for another version or target: nothing to store.
    if (session == sessions_.end()) return;
    std::optional<PtxasVerification>& verification = session->second.verification;
    if (!verification || verification->done || verification->version != job.version ||
        verification->target != job.target) {
      return;
    }
    verification->done = true;
    verification->result = std::move(result);
    waiting = std::exchange(verification->waiting, {});
    answer = verificationJson(*verification);
  }
  for (const json& id : waiting) reply(id, answer);
  if (codeLensRefreshSupported_) sendRequest("workspace/codeLens/refresh", nullptr);
}

}  // namespace ptx::lsp

// Server: the LSP protocol edge — JSON-RPC dispatch, lifecycle, configuration, and the
// translation between JSON and the features' typed results.
//
// It knows nothing of how bytes travel (main.cpp owns the transport). Notifications and
// requests are handled in arrival order on the caller's thread; a request whose document
// has no fresh-enough analysis yet waits (deferred) and is answered from a worker thread
// when the Scheduler delivers one — or cancelled by `$/cancelRequest` (-32800). The sender
// is called from several threads, one message at a time. The verify code lens's ptxas runs on a
// thread of its own (Server::verifyRegisters), and so do exact mode's nvcc runs (CudaExactMode.h), so
// neither holds up reading or analyses.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "BackgroundQueue.h"
#include "CudaExactMode.h"
#include "Document.h"
#include "PtxasRunner.h"
#include "Scheduler.h"
#include "Session.h"
#include "Settings.h"
#include "protocol/Positions.h"

namespace ptx::lsp {

struct CompletionItem;  // features/Completion.h

using config::FormatSettings;
using config::Settings;

// JSON-RPC and LSP error codes.
enum ErrorCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kServerNotInitialized = -32002,
  kRequestCancelled = -32800,
};

class Server {
 public:
  using Sender = std::function<void(const std::string& body)>;
  // Where ptxas is (oracle::findPtxas), asked once, at construction; nullopt: no ptxas, so no
  // verify code lens. Tests inject one.
  using PtxasLookup = std::function<std::optional<std::string>()>;
  explicit Server(Sender send, SchedulerOptions scheduling = {}, const PtxasLookup& findPtxas = oracle::findPtxas);
  ~Server();

  // Handles one message body (already unframed).
  void handle(std::string_view body);
  // Reports a framing problem the transport found.
  void handleBadFrame(std::string_view problem);

  bool exitRequested() const { return exitRequested_; }
  int exitCode() const { return shutdownRequested_ ? 0 : 1; }

  // Blocks until every analysis has finished, every ptxas run asked for is over and every
  // deferred request is answered.
  void waitIdle();

  // How long the verify lens lets ptxas run before it is stopped.
  static constexpr std::chrono::seconds kPtxasTimeout{60};

  // What a request needs from a document's analysis before it can be answered.
  enum class Need {
    Text,   // The current text and tree (formatting, folding, selection ranges, pull diagnostics).
    Local,  // The model around the request's position (hover, definition, completion, ...).
    Full,   // The whole model (references, rename, outline, semantic tokens, ...).
  };

 private:
  using Handler = nlohmann::json (Server::*)(const Analysis&, const nlohmann::json& params);
  struct Route {
    Need need;
    Handler handler;
    // For a CUDA document (Analysis::cuda): the feature inside asm templates, or what the
    // method answers when it has none there (the C++ is clangd's).
    Handler cuda;
  };
  // A workspace/executeCommand command: its name and what runs it (with the request's id and
  // `arguments`, null when absent): its result, or nullopt when it answers the id later itself.
  // The table is also what initialize advertises.
  using CommandHandler = std::optional<nlohmann::json> (Server::*)(const nlohmann::json& id,
                                                                  const nlohmann::json& arguments);
  struct Command {
    std::string_view name;
    CommandHandler handler;
  };
  static const std::vector<Command>& commands();

  // Server.cpp: dispatch, lifecycle, documents, settings and deferred requests.
  void request(const nlohmann::json& id, const std::string& method, const nlohmann::json& params);
  void notification(const std::string& method, const nlohmann::json& params);
  // Answers a document request now when an analysis allows it, else defers it.
  void documentRequest(const nlohmann::json& id, const std::string& method, const Route& route,
                       const nlohmann::json& params);
  // The analysis that can answer `params` under `need`, or null.
  std::shared_ptr<const Analysis> usableAnalysis(const Scheduler::View& view, Need need, const nlohmann::json& params) const;
  void answer(const nlohmann::json& id, const std::string& method, const Route& route, const Analysis& analysis,
              const nlohmann::json& params);
  void onAnalysis(const std::string& uri, const std::shared_ptr<const Analysis>& analysis);

  nlohmann::json initialize(const nlohmann::json& params);
  void didOpen(const nlohmann::json& params);
  void didChange(const nlohmann::json& params);
  void didClose(const nlohmann::json& params);
  void didChangeConfiguration(const nlohmann::json& params);
  void cancel(const nlohmann::json& params);
  std::optional<nlohmann::json> executeCommand(const nlohmann::json& id, const nlohmann::json& params);
  std::optional<nlohmann::json> explainRule(const nlohmann::json& id, const nlohmann::json& arguments);
  // ptxls.server.verifyRegisters [uri, function]: queues ptxas -v on the document's newest
  // analyzed text; answered (with the figures) when ptxas is done.
  std::optional<nlohmann::json> verifyRegisters(const nlohmann::json& id, const nlohmann::json& arguments);
  struct VerifyJob {
    std::string uri;
    std::int64_t version = 0;
    std::string target;
    std::shared_ptr<const std::string> text;
  };
  // With registers.verifyWithPtxas on: after a full analysis of the document's newest version,
  // queues the same run the command does (no request waits on it). Called from onAnalysis.
  void verifyAutomatically(const std::string& uri, const Analysis& analysis);
  void finishVerification(const VerifyJob& job, oracle::PtxasResult result);
  void sendRefreshRequests();
  // Whether some document still awaits an analysis under new settings (under sessionsMutex_).
  bool anyAwaitsSettings() const;
  void publishDiagnostics(const std::string& uri, const Analysis& analysis);

  // CudaExactMode.cpp: cuda.exactMode. Marks the document when `wanted` (open, save, the setting
  // turned on) and queues a run once its newest version has a full analysis.
  void requestExactMode(const std::string& uri, bool wanted);
  void didSave(const nlohmann::json& params);
  // The runner's callback: keeps the report in the session, republishes and refreshes lenses.
  void finishExactMode(const ExactModeJob& job, std::optional<oracle::ExactReport> report);
  // The finished run for this analysis's version and text (null: none, stale, or exact mode off).
  std::shared_ptr<const oracle::ExactReport> exactReportFor(const std::string& uri, const Analysis& analysis);
  // A lens per kernel with ptxas -v's figures from the run (none without a current run).
  nlohmann::json cudaCodeLenses(const Analysis& analysis, const nlohmann::json& params);

  // Settings for a document: client settings overlaid with its project file.
  Settings settingsFor(const std::string& uri);
  // CudaRequests.cpp: the device passes of an open CUDA document under `settings` (its problems
  // logged); nullopt for a PTX document.
  std::optional<CudaSetup> cudaSetupFor(const std::string& uri, const Settings& settings);
  void applySettingsToOpenDocuments();
  // The settings an open document's session holds (the client's when it has none).
  Settings sessionSettings(const std::string& uri);

  // DocumentRequests.cpp: each request's parameters → a feature → its JSON.
  nlohmann::json hover(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json definition(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json references(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json highlights(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json documentSymbols(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json foldingRanges(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json selectionRanges(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json pullDiagnostics(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json completion(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json signatureHelp(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json semanticTokensFull(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json semanticTokensDelta(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json semanticTokensRange(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json inlayHints(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json prepareRename(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json rename(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json codeActions(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json formatting(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json codeLenses(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json registerReport(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json workspaceSymbols(const nlohmann::json& params);
  // A completion list as LSP JSON.
  nlohmann::json completionList(const Analysis& analysis, const std::vector<CompletionItem>& items) const;
  // Tokens as semanticTokens/full/delta answers: edits against the previous result when the
  // client sent its id, else the whole set.
  nlohmann::json semanticTokensEdits(const std::string& uri, std::vector<std::uint32_t> data, const nlohmann::json& params);

  // CudaRequests.cpp: the features of a CUDA document, inside its asm templates only.
  nlohmann::json cudaHover(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json cudaDefinition(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json cudaReferences(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json cudaHighlights(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json cudaCompletion(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json cudaSemanticTokensFull(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json cudaSemanticTokensDelta(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json cudaSemanticTokensRange(const Analysis& analysis, const nlohmann::json& params);
  // The answers of methods that have nothing to say about a CUDA document: null, or [].
  nlohmann::json nothing(const Analysis& analysis, const nlohmann::json& params);
  nlohmann::json noItems(const Analysis& analysis, const nlohmann::json& params);
  // Remembers the semantic tokens sent for a document, for delta requests (any thread).
  nlohmann::json rememberTokens(const std::string& uri, std::vector<std::uint32_t> data);
  // The analysis's diagnostics, with a CUDA document's current exact-mode findings.
  nlohmann::json diagnosticsJson(const std::string& uri, const Analysis& analysis);

  void reply(const nlohmann::json& id, nlohmann::json result);
  void replyError(const nlohmann::json& id, int code, std::string_view message);
  void notify(std::string_view method, nlohmann::json params);
  // Sends a request to the client; `onResult` gets the result (null on an error response).
  void sendRequest(std::string_view method, nlohmann::json params,
                   std::function<void(const nlohmann::json& result)> onResult = nullptr);
  void handleResponse(const nlohmann::json& message);
  // Asks the client for the "ptxls" section of its settings (workspace/configuration).
  void pullConfiguration();
  void log(int type, std::string_view message);
  void send(const nlohmann::json& message);

  Sender send_;
  std::mutex sendMutex_;
  bool initialized_ = false;
  bool shutdownRequested_ = false;
  bool exitRequested_ = false;
  PositionEncoding encoding_ = PositionEncoding::Utf16;
  bool pushDiagnostics_ = true;    // False when the client pulls (textDocument/diagnostic).
  bool progressSupported_ = false;  // window.workDoneProgress
  bool configurationSupported_ = false;  // workspace.configuration
  bool diagnosticRefreshSupported_ = false;  // workspace.diagnostics.refreshSupport
  bool inlayHintRefreshSupported_ = false;   // workspace.inlayHint.refreshSupport
  bool codeLensRefreshSupported_ = false;    // workspace.codeLens.refreshSupport
  Settings initialSettings_;  // From initializationOptions.
  Settings clientSettings_;
  std::map<std::string, Route, std::less<>> routes_;
  CudaSetupFinder cudaSetups_;  // Keeps the compile_commands.json files it read.

  // One session per open document, under sessionsMutex_; sessionsDrained_ is notified when
  // deferred requests are answered or dropped.
  std::mutex sessionsMutex_;
  std::condition_variable sessionsDrained_;
  std::map<std::string, Session, std::less<>> sessions_;
  std::uint64_t nextTokensId_ = 1;  // Under sessionsMutex_.
  std::atomic<int> nextServerRequestId_{1};  // Refresh requests are sent from worker threads too.
  std::map<std::string, std::function<void(const nlohmann::json&)>> pendingServerRequests_;  // Main thread only.

  // The verify lens: ptxas (none: no lens), and its jobs, run one at a time on a thread of their
  // own: each result is stored in its session, answers the requests waiting on it and asks the
  // client to refresh its code lenses (finishVerification). Stopped in ~Server.
  std::optional<std::string> ptxas_;
  BackgroundQueue<VerifyJob> verifier_{[this](VerifyJob& job) {
    finishVerification(job, oracle::runPtxas(*ptxas_, *job.text, job.target, kPtxasTimeout));
  }};

  // cuda.exactMode's nvcc runs, one at a time on a thread of their own (stopped in ~Server, before
  // the scheduler it reads goes).
  BackgroundQueue<ExactModeJob> exactMode_{[this](ExactModeJob& job) { finishExactMode(job, runExactModeJob(job)); }};

  // Last: destroyed first, so no worker calls back into a half-destroyed server.
  std::unique_ptr<Scheduler> scheduler_;
};

}  // namespace ptx::lsp

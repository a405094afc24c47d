// Server: JSON-RPC dispatch, the LSP lifecycle, open documents' sessions and settings, and
// requests deferred until an analysis can answer them. The JSON of each document feature is in
// DocumentRequests.cpp.
#include "Server.h"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <utility>

#include "LspJson.h"
#include "Registry.h"
#include "RuleDocs.h"
#include "features/CodeLenses.h"
#include "features/SemanticTokens.h"

#ifndef PTXLS_VERSION
#define PTXLS_VERSION "0.0.0"
#endif

namespace ptx::lsp {
namespace {

using json = nlohmann::json;
using config::findProjectFile;
using config::lintOptionsFor;
using config::mergeSettings;
using config::pathOfUri;

constexpr int kRequestFailed = -32803;

// workspace/executeCommand: a rule's documentation, for editors' "explain this rule" commands.
// Named apart from any editor command: vscode-languageclient registers every server command as
// a VS Code command of the same name, which would clash with the extension's own.
constexpr std::string_view kExplainRuleCommand = "ptxls.server.explainRule";

}  // namespace

Server::Server(Sender send, SchedulerOptions scheduling, const PtxasLookup& findPtxas)
    : send_(std::move(send)), ptxas_(findPtxas ? findPtxas() : std::nullopt) {
  routes_ = {
      {"textDocument/hover", {Need::Local, &Server::hover, &Server::cudaHover}},
      {"textDocument/definition", {Need::Local, &Server::definition, &Server::cudaDefinition}},
      {"textDocument/declaration", {Need::Local, &Server::definition, &Server::cudaDefinition}},
      {"textDocument/references", {Need::Full, &Server::references, &Server::cudaReferences}},
      {"textDocument/documentHighlight", {Need::Local, &Server::highlights, &Server::cudaHighlights}},
      {"textDocument/documentSymbol", {Need::Full, &Server::documentSymbols, &Server::noItems}},
      {"textDocument/foldingRange", {Need::Text, &Server::foldingRanges, &Server::noItems}},
      {"textDocument/selectionRange", {Need::Text, &Server::selectionRanges, &Server::nothing}},
      {"textDocument/diagnostic", {Need::Text, &Server::pullDiagnostics, &Server::pullDiagnostics}},
      {"textDocument/completion", {Need::Local, &Server::completion, &Server::cudaCompletion}},
      {"textDocument/signatureHelp", {Need::Local, &Server::signatureHelp, &Server::nothing}},
      {"textDocument/semanticTokens/full", {Need::Full, &Server::semanticTokensFull, &Server::cudaSemanticTokensFull}},
      {"textDocument/semanticTokens/full/delta", {Need::Full, &Server::semanticTokensDelta, &Server::cudaSemanticTokensDelta}},
      {"textDocument/semanticTokens/range", {Need::Local, &Server::semanticTokensRange, &Server::cudaSemanticTokensRange}},
      {"textDocument/inlayHint", {Need::Local, &Server::inlayHints, &Server::noItems}},
      {"textDocument/prepareRename", {Need::Full, &Server::prepareRename, &Server::nothing}},
      {"textDocument/rename", {Need::Full, &Server::rename, &Server::nothing}},
      {"textDocument/codeAction", {Need::Local, &Server::codeActions, &Server::codeActions}},
      {"textDocument/formatting", {Need::Text, &Server::formatting, &Server::nothing}},
      {"textDocument/rangeFormatting", {Need::Text, &Server::formatting, &Server::nothing}},
      {"textDocument/codeLens", {Need::Full, &Server::codeLenses, &Server::cudaCodeLenses}},
      {"ptxls/registerReport", {Need::Full, &Server::registerReport, &Server::nothing}},
  };
  scheduler_ = std::make_unique<Scheduler>(
      scheduling, [this](const std::string& uri, const std::shared_ptr<const Analysis>& analysis) {
        onAnalysis(uri, analysis);
      });
}

Server::~Server() {
  // Workers call back into this server (onAnalysis) until they are joined, and they reach it
  // through scheduler_: stop them while both are whole. (unique_ptr::reset would null the
  // pointer before the scheduler's destructor joins them.)
  scheduler_->stop();
  // Runs under way are not interrupted: they end within their tools' timeouts. Queued ones are
  // dropped.
  exactMode_.stop();
  verifier_.stop();
}

void Server::handle(std::string_view body) {
  json message = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) {
    replyError(nullptr, kParseError, "the message is not valid JSON");
    return;
  }
  if (!message.is_object()) {
    replyError(nullptr, kInvalidRequest, "a JSON-RPC message must be an object");
    return;
  }
  bool hasId = message.contains("id");
  json id = hasId ? message["id"] : json(nullptr);
  if (hasId && !id.is_string() && !id.is_number_integer() && !id.is_null()) {
    replyError(nullptr, kInvalidRequest, "'id' must be a string or an integer");
    return;
  }
  if (!message.contains("method") || !message["method"].is_string()) {
    // A response to a request we sent, or garbage: only requests get an error.
    if (hasId && (message.contains("result") || message.contains("error"))) {
      handleResponse(message);
    } else if (hasId) {
      replyError(id, kInvalidRequest, "a request needs a 'method' string");
    }
    return;
  }
  std::string method = message["method"].get<std::string>();
  json params = message.contains("params") ? message["params"] : json::object();
  try {
    if (hasId) {
      request(id, method, params);
    } else {
      notification(method, params);
    }
  } catch (const InvalidParams& error) {
    if (hasId) {
      replyError(id, kInvalidParams, error.message);
    } else {
      log(1, method + ": " + error.message);
    }
  } catch (const std::exception& error) {
    if (hasId) {
      replyError(id, kInternalError, error.what());
    } else {
      log(1, method + ": " + error.what());
    }
  }
}

void Server::handleBadFrame(std::string_view problem) {
  std::string message = "bad message header: ";
  message += problem;
  replyError(nullptr, kParseError, message);
}

void Server::request(const json& id, const std::string& method, const json& params) {
  if (method == "initialize") {
    if (initialized_) {
      replyError(id, kInvalidRequest, "initialize was already received");
      return;
    }
    reply(id, initialize(params));
    initialized_ = true;
    return;
  }
  if (!initialized_) {
    replyError(id, kServerNotInitialized, "the server has not been initialized");
    return;
  }
  if (shutdownRequested_) {
    replyError(id, kInvalidRequest, "the server is shutting down");
    return;
  }
  if (method == "shutdown") {
    // Requests that arrived before shutdown still get their answers (and diagnostics their
    // last publish) before the client is told it may exit.
    waitIdle();
    shutdownRequested_ = true;
    reply(id, nullptr);
    return;
  }
  if (method == "workspace/symbol") {
    reply(id, workspaceSymbols(params));
    return;
  }
  if (method == "workspace/executeCommand") {
    try {
      if (std::optional<json> result = executeCommand(id, params)) reply(id, std::move(*result));
    } catch (const RequestFailed& error) {
      replyError(id, kRequestFailed, error.message);
    }
    return;
  }
  auto route = routes_.find(method);
  if (route == routes_.end()) {
    replyError(id, kMethodNotFound, "unknown method '" + method + "'");
    return;
  }
  documentRequest(id, method, route->second, params);
}

void Server::notification(const std::string& method, const json& params) {
  if (method == "exit") {
    exitRequested_ = true;
    return;
  }
  // Before initialize, notifications are dropped (LSP 3.17, "initialize" request).
  if (!initialized_ || shutdownRequested_) return;
  if (method == "initialized") {
    pullConfiguration();
  } else if (method == "textDocument/didOpen") {
    didOpen(params);
  } else if (method == "textDocument/didChange") {
    didChange(params);
  } else if (method == "textDocument/didClose") {
    didClose(params);
  } else if (method == "workspace/didChangeConfiguration") {
    didChangeConfiguration(params);
  } else if (method == "$/cancelRequest") {
    cancel(params);
  } else if (method == "textDocument/didSave") {
    didSave(params);  // Others ($/setTrace, ...) need nothing from us.
  }
}

json Server::initialize(const json& params) {
  const json capabilities = params.is_object() && params.contains("capabilities") ? params["capabilities"] : json::object();
  // Prefer UTF-8 positions when the client offers them: no transcoding on our side.
  if (hasMember(capabilities, {"general", "positionEncodings"}) &&
      capabilities["general"]["positionEncodings"].is_array()) {
    for (const json& encoding : capabilities["general"]["positionEncodings"]) {
      if (encoding == "utf-8") encoding_ = PositionEncoding::Utf8;
    }
  }
  // A client that pulls diagnostics would show pushed ones twice.
  pushDiagnostics_ = !hasMember(capabilities, {"textDocument", "diagnostic"});
  progressSupported_ = isTrue(capabilities, {"window", "workDoneProgress"});
  configurationSupported_ = isTrue(capabilities, {"workspace", "configuration"});
  diagnosticRefreshSupported_ = isTrue(capabilities, {"workspace", "diagnostics", "refreshSupport"});
  inlayHintRefreshSupported_ = isTrue(capabilities, {"workspace", "inlayHint", "refreshSupport"});
  codeLensRefreshSupported_ = isTrue(capabilities, {"workspace", "codeLens", "refreshSupport"});
  if (params.is_object() && params.contains("initializationOptions")) {
    for (const std::string& problem : mergeSettings(initialSettings_, params["initializationOptions"])) {
      log(2, "initializationOptions: " + problem);
    }
  }
  clientSettings_ = initialSettings_;
  scheduler_->setOptions({clientSettings_.debounce, SchedulerOptions{}.fullDelay, 0});

  json commandNames = json::array();
  for (const Command& command : commands()) commandNames.push_back(std::string(command.name));
  json result = {
      {"positionEncoding", encoding_ == PositionEncoding::Utf8 ? "utf-8" : "utf-16"},
      {"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
      {"hoverProvider", true},
      {"definitionProvider", true},
      {"declarationProvider", true},
      {"referencesProvider", true},
      {"documentHighlightProvider", true},
      {"documentSymbolProvider", true},
      {"workspaceSymbolProvider", true},
      {"foldingRangeProvider", true},
      {"selectionRangeProvider", true},
      {"diagnosticProvider", {{"interFileDependencies", false}, {"workspaceDiagnostics", false}}},
      {"completionProvider", {{"triggerCharacters", {".", "%", "$"}}, {"resolveProvider", false}}},
      {"signatureHelpProvider", {{"triggerCharacters", {" ", ","}}, {"retriggerCharacters", {","}}}},
      {"semanticTokensProvider",
       {{"legend", {{"tokenTypes", semanticTokenTypes()}, {"tokenModifiers", semanticTokenModifiers()}}},
        {"full", {{"delta", true}}},
        {"range", true}}},
      {"inlayHintProvider", true},
      {"renameProvider", {{"prepareProvider", true}}},
      {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
      {"documentFormattingProvider", true},
      {"documentRangeFormattingProvider", true},
      {"executeCommandProvider", {{"commands", std::move(commandNames)}}},
      {"codeLensProvider", {{"resolveProvider", false}}},
  };
  return {{"capabilities", result}, {"serverInfo", {{"name", "ptxls"}, {"version", PTXLS_VERSION}}}};
}

const std::vector<Server::Command>& Server::commands() {
  static const std::vector<Command> table = {
      {kExplainRuleCommand, &Server::explainRule},
      {kVerifyRegistersCommand, &Server::verifyRegisters},
  };
  return table;
}

std::optional<json> Server::executeCommand(const json& id, const json& params) {
  if (!params.is_object() || !params.contains("command") || !params["command"].is_string()) {
    throw InvalidParams{"workspace/executeCommand needs a 'command' string"};
  }
  std::string name = params["command"].get<std::string>();
  for (const Command& command : commands()) {
    if (command.name == name) {
      return (this->*command.handler)(id, params.contains("arguments") ? params["arguments"] : json());
    }
  }
  throw InvalidParams{"unknown command '" + name + "'"};
}

// arguments: [RULE] (a code such as "ALN001" or a name such as "mbarrier-alignment").
// Result: {code, name, category, severity, summary, documentation (markdown), href}.
std::optional<json> Server::explainRule(const json& /*id*/, const json& arguments) {
  if (!arguments.is_array() || arguments.empty() || !arguments[0].is_string()) {
    throw InvalidParams{std::string(kExplainRuleCommand) + " needs one argument: a rule code or name"};
  }
  std::string wanted = arguments[0].get<std::string>();
  const RuleMeta* rule = findRule(wanted);
  if (rule == nullptr) throw InvalidParams{"no rule named '" + wanted + "'"};
  return json{{"code", rule->code},
          {"name", rule->name},
          {"category", toString(rule->category)},
          {"severity", toString(rule->defaultSeverity)},
          {"summary", rule->summary},
          {"documentation", ruleDocumentation(rule->code)},
          {"href", ruleDocsHref(rule->code)}};
}

Settings Server::settingsFor(const std::string& uri) {
  auto path = pathOfUri(uri);
  std::optional<std::filesystem::path> projectFile = path ? findProjectFile(*path) : std::nullopt;
  if (!projectFile) return clientSettings_;
  config::ProjectSettings project = config::loadProjectFile(*projectFile, clientSettings_);
  if (!project.unusable.empty()) log(1, projectFile->string() + ": " + project.unusable + "; ignored");
  for (const std::string& problem : project.problems) log(2, projectFile->string() + ": " + problem);
  return project.settings;
}

Settings Server::sessionSettings(const std::string& uri) {
  std::lock_guard lock(sessionsMutex_);
  auto session = sessions_.find(uri);
  return session != sessions_.end() ? session->second.settings : clientSettings_;
}

void Server::applySettingsToOpenDocuments() {
  bool anyRefresh = diagnosticRefreshSupported_ || inlayHintRefreshSupported_ || codeLensRefreshSupported_;
  for (const std::string& uri : scheduler_->openDocuments()) {
    Settings settings = settingsFor(uri);
    std::optional<CudaSetup> cuda = cudaSetupFor(uri, settings);
    // One critical section: the analysis under the new options can finish (onAnalysis) as
    // soon as setLintOptions wakes a worker, and must find what it is awaited for. (Lock
    // order as in onAnalysis: sessionsMutex_, then the scheduler's.)
    std::lock_guard lock(sessionsMutex_);
    std::uint64_t serial = scheduler_->setLintOptions(uri, lintOptionsFor(settings), std::move(cuda));
    if (serial == 0) continue;  // Closed meanwhile.
    Session& session = sessions_[uri];
    session.exactWanted = session.exactWanted || (settings.cudaExactMode && !session.settings.cudaExactMode);
    session.settings = std::move(settings);
    if (anyRefresh) session.awaitedSettingsSerial = serial;
  }
}

void Server::didOpen(const json& params) {
  const json& item = member(params, "textDocument");
  std::string uri = stringMember(item, "uri");
  std::string text = stringMember(item, "text");
  const json& version = member(item, "version");
  if (!version.is_number_integer()) throw InvalidParams("'version' must be an integer");
  // Large files take a moment the first time: show progress where the client can.
  std::string progressToken;
  if (progressSupported_ && text.size() >= (std::size_t{1} << 20)) {
    progressToken = "ptxls/open/" + std::to_string(nextServerRequestId_.load());
    sendRequest("window/workDoneProgress/create", {{"token", progressToken}});
    notify("$/progress", {{"token", progressToken},
                          {"value", {{"kind", "begin"}, {"title", "Analyzing"}, {"message", uri}, {"cancellable", false}}}});
  }
  Settings settings = settingsFor(uri);
  {
    std::lock_guard lock(sessionsMutex_);
    Session& session = sessions_[uri];
    if (!progressToken.empty()) session.progressToken = progressToken;
    session.lastPublished.clear();
    session.settings = settings;
    const json& language = item.contains("languageId") ? item["languageId"] : json();
    session.cuda = isCudaDocument(language.is_string() ? language.get<std::string>() : "", uri);
  }
  scheduler_->open(uri, std::move(text), version.get<std::int64_t>(), lintOptionsFor(settings), cudaSetupFor(uri, settings));
  requestExactMode(uri, true);  // Runs once the first full analysis is there.
}

void Server::didChange(const json& params) {
  const json& identifier = member(params, "textDocument");
  std::string uri = stringMember(identifier, "uri");
  const json& changes = member(params, "contentChanges");
  if (!changes.is_array()) throw InvalidParams("'contentChanges' must be an array");
  // Validate every change before applying any, so a bad batch leaves the text untouched.
  std::vector<std::pair<std::optional<Range>, std::string>> parsed;
  for (const json& change : changes) {
    std::string text = stringMember(change, "text");
    std::optional<Range> range;
    if (change.contains("range")) range = rangeOf(change["range"]);
    parsed.emplace_back(range, std::move(text));
  }
  std::optional<std::int64_t> version;
  if (identifier.contains("version") && identifier["version"].is_number_integer()) {
    version = identifier["version"].get<std::int64_t>();
  }
  bool open = scheduler_->edit(uri, [&](Document& document) {
    if (version && *version <= document.version()) {
      // Versions only grow (LSP 3.17); an older one means the client and we disagree.
      log(2, "didChange for " + uri + " has version " + std::to_string(*version) + ", not after " +
                 std::to_string(document.version()) + "; applied anyway");
    }
    for (const auto& [range, text] : parsed) document.applyChange(range, text, encoding_);
    if (version) document.setVersion(*version);
  });
  if (!open) log(2, "didChange for a document that is not open: " + uri);
}

void Server::didClose(const json& params) {
  std::string uri = documentUri(params);
  if (!scheduler_->close(uri)) return;
  exactMode_.cancel(uri);
  std::vector<PendingRequest> orphans;
  bool refresh = false;
  {
    std::lock_guard lock(sessionsMutex_);
    if (auto session = sessions_.find(uri); session != sessions_.end()) {
      orphans = std::move(session->second.pending);
      if (session->second.verification) {
        for (json& id : session->second.verification->waiting) orphans.push_back({std::move(id), {}, {}});
      }
      bool awaited = session->second.awaitedSettingsSerial.has_value();
      sessions_.erase(session);
      refresh = awaited && !anyAwaitsSettings();
    }
  }
  if (refresh) sendRefreshRequests();
  sessionsDrained_.notify_all();
  for (const PendingRequest& request : orphans) replyError(request.id, kInvalidParams, "document was closed: " + uri);
  if (pushDiagnostics_) notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}});
}

// After new settings reach every open document: what the client shows from this server and
// would not ask for again by itself — pulled diagnostics, inlay hints (the live-register hints
// follow a setting), code lenses (the register estimate follows the target setting).
void Server::sendRefreshRequests() {
  if (diagnosticRefreshSupported_) sendRequest("workspace/diagnostic/refresh", nullptr);
  if (inlayHintRefreshSupported_) sendRequest("workspace/inlayHint/refresh", nullptr);
  if (codeLensRefreshSupported_) sendRequest("workspace/codeLens/refresh", nullptr);
}

bool Server::anyAwaitsSettings() const {
  return std::any_of(sessions_.begin(), sessions_.end(),
                     [](const auto& entry) { return entry.second.awaitedSettingsSerial.has_value(); });
}

void Server::didChangeConfiguration(const json& params) {
  // Clients that support workspace/configuration often send `settings: null` and expect the
  // server to ask.
  if (configurationSupported_) {
    pullConfiguration();
    return;
  }
  if (params.is_object() && params.contains("settings")) {
    Settings updated = clientSettings_;
    for (const std::string& problem : mergeSettings(updated, params["settings"])) log(2, "settings: " + problem);
    clientSettings_ = updated;
    scheduler_->setOptions({clientSettings_.debounce, SchedulerOptions{}.fullDelay, 0});
  }
  applySettingsToOpenDocuments();
}

void Server::cancel(const json& params) {
  if (!params.is_object() || !params.contains("id")) return;
  const json& id = params["id"];
  std::optional<PendingRequest> cancelled;
  {
    std::lock_guard lock(sessionsMutex_);
    for (auto& [uri, session] : sessions_) {
      std::vector<PendingRequest>& requests = session.pending;
      auto it = std::find_if(requests.begin(), requests.end(), [&](const PendingRequest& d) { return d.id == id; });
      if (it != requests.end()) {
        cancelled = std::move(*it);
        requests.erase(it);
        break;
      }
    }
  }
  sessionsDrained_.notify_all();
  // A request already answered is not cancelled; LSP allows either.
  if (cancelled) replyError(cancelled->id, kRequestCancelled, "request cancelled");
}

std::shared_ptr<const Analysis> Server::usableAnalysis(const Scheduler::View& view, Need need, const json& params) const {
  if (view.full && view.full->version == view.version) return view.full;
  if (!view.latest || view.latest->version != view.version) return nullptr;
  if (need == Need::Text || view.latest->isFull()) return view.latest;
  if (need == Need::Full) return nullptr;
  // Local: the incremental model answers inside the function it re-checked.
  if (params.is_object() && params.contains("position")) {
    std::uint32_t offset = offsetIn(*view.latest, positionOf(params["position"]), encoding_);
    if (view.latest->covers(offset, offset)) return view.latest;
  } else if (params.is_object() && params.contains("range")) {
    Range range = rangeOf(params["range"]);
    if (view.latest->covers(offsetIn(*view.latest, range.start, encoding_), offsetIn(*view.latest, range.end, encoding_))) {
      return view.latest;
    }
  }
  return nullptr;
}

void Server::documentRequest(const json& id, const std::string& method, const Route& route, const json& params) {
  std::string uri = documentUri(params);
  if (params.contains("position")) positionOf(params["position"]);  // Validate before waiting.
  std::shared_ptr<const Analysis> analysis;
  {
    std::lock_guard lock(sessionsMutex_);
    Scheduler::View view = scheduler_->view(uri);
    if (!view.open) throw InvalidParams("document is not open: " + uri);
    analysis = usableAnalysis(view, route.need, params);
    if (!analysis) sessions_[uri].pending.push_back({id, method, params});
  }
  if (!analysis) {
    scheduler_->hurry(uri, route.need != Need::Text);
    return;
  }
  answer(id, method, route, *analysis, params);
}

void Server::answer(const json& id, const std::string& method, const Route& route, const Analysis& analysis,
                    const json& params) {
  try {
    reply(id, (this->*(analysis.cuda ? route.cuda : route.handler))(analysis, params));
  } catch (const InvalidParams& error) {
    replyError(id, kInvalidParams, error.message);
  } catch (const RequestFailed& error) {
    replyError(id, kRequestFailed, error.message);
  } catch (const std::exception& error) {
    replyError(id, kInternalError, method + ": " + error.what());
  }
}

void Server::onAnalysis(const std::string& uri, const std::shared_ptr<const Analysis>& analysis) {
  std::vector<std::pair<PendingRequest, std::shared_ptr<const Analysis>>> ready;
  std::string progressToken;
  bool publish = false;
  {
    std::lock_guard lock(sessionsMutex_);
    Scheduler::View view = scheduler_->view(uri);
    if (!view.open) return;
    auto session = sessions_.find(uri);
    if (analysis->version == view.version) {
      publish = pushDiagnostics_;
      if (session != sessions_.end()) progressToken = std::exchange(session->second.progressToken, std::string());
    }
    if (session != sessions_.end()) {
      std::vector<PendingRequest>& waiting = session->second.pending;
      for (auto request = waiting.begin(); request != waiting.end();) {
        const Route& route = routes_.find(request->method)->second;
        std::shared_ptr<const Analysis> usable;
        try {
          usable = usableAnalysis(view, route.need, request->params);
        } catch (const std::exception&) {
          usable = view.latest;  // Bad params: let the handler report them.
        }
        if (usable) {
          ready.emplace_back(std::move(*request), usable);
          request = waiting.erase(request);
        } else {
          ++request;
        }
      }
    }
  }
  if (publish) publishDiagnostics(uri, *analysis);
  // Clients that pull diagnostics ask again only when told: once every open document has a
  // full analysis under the new settings, tell them (workspace/diagnostic/refresh).
  bool refresh = false;
  if (analysis->isFull()) {
    std::lock_guard lock(sessionsMutex_);
    auto session = sessions_.find(uri);
    if (session != sessions_.end() && session->second.awaitedSettingsSerial &&
        analysis->settingsSerial >= *session->second.awaitedSettingsSerial) {
      session->second.awaitedSettingsSerial.reset();
      refresh = !anyAwaitsSettings();
    }
  }
  if (refresh) sendRefreshRequests();
  verifyAutomatically(uri, *analysis);
  if (analysis->isFull()) requestExactMode(uri, false);
  if (!progressToken.empty()) notify("$/progress", {{"token", progressToken}, {"value", {{"kind", "end"}}}});
  for (auto& [request, usable] : ready) answer(request.id, request.method, routes_.find(request.method)->second, *usable, request.params);
  if (!ready.empty()) sessionsDrained_.notify_all();
  // Requests still waiting need the full analysis that follows an incremental one.
  bool stillWaiting = false;
  {
    std::lock_guard lock(sessionsMutex_);
    auto session = sessions_.find(uri);
    stillWaiting = session != sessions_.end() && !session->second.pending.empty();
  }
  if (stillWaiting) scheduler_->hurry(uri, true);
}

void Server::waitIdle() {
  scheduler_->waitIdle();
  exactMode_.waitIdle();
  verifier_.waitIdle();
  std::unique_lock lock(sessionsMutex_);
  sessionsDrained_.wait_for(lock, std::chrono::seconds(30), [&] {
    return std::none_of(sessions_.begin(), sessions_.end(), [](const auto& entry) { return !entry.second.pending.empty(); });
  });
}

void Server::publishDiagnostics(const std::string& uri, const Analysis& analysis) {
  json diagnostics = diagnosticsJson(uri, analysis);
  json params = {{"uri", uri}, {"version", analysis.version}, {"diagnostics", std::move(diagnostics)}};
  std::string body = params.dump(-1, ' ', false, json::error_handler_t::replace);
  {
    // An incremental result followed by the full one for the same version usually says the
    // same thing: publish it once.
    std::lock_guard lock(sessionsMutex_);
    if (auto session = sessions_.find(uri); session != sessions_.end()) {
      if (session->second.lastPublished == body) return;
      session->second.lastPublished = body;
    }
  }
  notify("textDocument/publishDiagnostics", std::move(params));
}

void Server::send(const json& message) {
  std::string body = message.dump(-1, ' ', false, json::error_handler_t::replace);
  std::lock_guard lock(sendMutex_);
  send_(body);
}

void Server::reply(const json& id, json result) {
  send(json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void Server::replyError(const json& id, int code, std::string_view message) {
  send(json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", std::string(message)}}}});
}

void Server::notify(std::string_view method, json params) {
  send(json{{"jsonrpc", "2.0"}, {"method", std::string(method)}, {"params", std::move(params)}});
}

void Server::sendRequest(std::string_view method, json params, std::function<void(const json&)> onResult) {
  std::string id = "ptxls-" + std::to_string(nextServerRequestId_++);
  if (onResult) pendingServerRequests_[id] = std::move(onResult);
  send(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", std::string(method)}, {"params", std::move(params)}});
}

void Server::handleResponse(const json& message) {
  if (!message["id"].is_string()) return;
  auto it = pendingServerRequests_.find(message["id"].get<std::string>());
  if (it == pendingServerRequests_.end()) return;
  auto onResult = std::move(it->second);
  pendingServerRequests_.erase(it);
  onResult(message.contains("result") ? message["result"] : json(nullptr));
}

void Server::pullConfiguration() {
  if (!configurationSupported_) return;
  sendRequest("workspace/configuration", {{"items", {{{"section", "ptxls"}}}}}, [this](const json& result) {
    if (!result.is_array() || result.empty()) return;
    // A section the client knows is its whole current configuration: start from the defaults,
    // so that a setting removed since initialize (initializationOptions) is gone. A client
    // without such a section answers null; initializationOptions then still apply.
    Settings updated = result[0].is_null() ? initialSettings_ : Settings{};
    for (const std::string& problem : mergeSettings(updated, result[0])) log(2, "settings: " + problem);
    clientSettings_ = updated;
    scheduler_->setOptions({clientSettings_.debounce, SchedulerOptions{}.fullDelay, 0});
    applySettingsToOpenDocuments();
  });
}

void Server::log(int type, std::string_view message) {
  notify("window/logMessage", {{"type", type}, {"message", std::string(message)}});
}

}  // namespace ptx::lsp

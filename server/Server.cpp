// Server: JSON-RPC dispatch, the LSP lifecycle, and the JSON shape of every feature.
#include "Server.h"

#include <exception>
#include <fstream>
#include <sstream>

#include "Registry.h"
#include "RuleDocs.h"
#include "features/CodeActions.h"
#include "features/Completion.h"
#include "features/DocumentSymbols.h"
#include "features/Folding.h"
#include "features/Hover.h"
#include "features/InlayHints.h"
#include "features/Navigation.h"
#include "features/Rename.h"
#include "features/SemanticTokens.h"
#include "features/SignatureHelp.h"
#include "features/WorkspaceSymbols.h"
#include "flow/FunctionFlow.h"
#include "registers/RegisterReport.h"
#include "format/Formatter.h"

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

// Thrown by handlers for malformed params; becomes an InvalidParams error.
struct InvalidParams : std::exception {
  explicit InvalidParams(std::string why) : message(std::move(why)) {}
  const char* what() const noexcept override { return message.c_str(); }
  std::string message;
};

// Thrown by handlers that understood the request but cannot do it (a refused rename).
struct RequestFailed : std::exception {
  explicit RequestFailed(std::string why) : message(std::move(why)) {}
  const char* what() const noexcept override { return message.c_str(); }
  std::string message;
};
constexpr int kRequestFailed = -32803;

const json& member(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key)) throw InvalidParams(std::string("missing '") + key + "'");
  return object[key];
}

std::string stringMember(const json& object, const char* key) {
  const json& value = member(object, key);
  if (!value.is_string()) throw InvalidParams(std::string("'") + key + "' must be a string");
  return value.get<std::string>();
}

std::string documentUri(const json& params) { return stringMember(member(params, "textDocument"), "uri"); }

Position positionOf(const json& value) {
  const json& line = member(value, "line");
  const json& character = member(value, "character");
  if (!line.is_number_integer() || !character.is_number_integer() || line.get<long long>() < 0 ||
      character.get<long long>() < 0) {
    throw InvalidParams("a position needs non-negative integer 'line' and 'character'");
  }
  auto clamp = [](long long v) { return static_cast<std::uint32_t>(std::min<long long>(v, UINT32_MAX)); };
  return {clamp(line.get<long long>()), clamp(character.get<long long>())};
}

Range rangeOf(const json& value) { return {positionOf(member(value, "start")), positionOf(member(value, "end"))}; }

json toJson(Position position) { return {{"line", position.line}, {"character", position.character}}; }

int severityCode(Severity severity) {
  switch (severity) {
    case Severity::Error: return 1;
    case Severity::Warning: return 2;
    case Severity::Information: return 3;
    case Severity::Hint: return 4;
  }
  return 1;
}

// Where rule documentation lives, for diagnostics' codeDescription links.
constexpr std::string_view kRuleDocsBase = "https://github.com/ptxls/ptxls/blob/main/docs/rules/";

// workspace/executeCommand: a rule's documentation, for editors' "explain this rule" commands.
// Named apart from any editor command: vscode-languageclient registers every server command as
// a VS Code command of the same name, which would clash with the extension's own.
constexpr std::string_view kExplainRuleCommand = "ptxls.server.explainRule";

bool isTrue(const json& object, std::initializer_list<const char*> path) {
  const json* at = &object;
  for (const char* key : path) {
    if (!at->is_object() || !at->contains(key)) return false;
    at = &(*at)[key];
  }
  return at->is_boolean() && at->get<bool>();
}

bool hasMember(const json& object, std::initializer_list<const char*> path) {
  const json* at = &object;
  for (const char* key : path) {
    if (!at->is_object() || !at->contains(key)) return false;
    at = &(*at)[key];
  }
  return true;
}

}  // namespace

// Byte offset ↔ LSP conversions against one analysis's text.
namespace {

std::uint32_t offsetIn(const Analysis& analysis, Position position, PositionEncoding encoding) {
  return offsetAt(*analysis.text, analysis.lines, position, encoding);
}

json rangeJson(const Analysis& analysis, ByteRange range, PositionEncoding encoding) {
  return {{"start", toJson(positionAt(*analysis.text, analysis.lines, range.begin, encoding))},
          {"end", toJson(positionAt(*analysis.text, analysis.lines, range.end, encoding))}};
}

}  // namespace

Server::Server(Sender send, SchedulerOptions scheduling) : send_(std::move(send)) {
  routes_ = {
      {"textDocument/hover", {Need::Local, &Server::hover}},
      {"textDocument/definition", {Need::Local, &Server::definition}},
      {"textDocument/declaration", {Need::Local, &Server::definition}},
      {"textDocument/references", {Need::Full, &Server::references}},
      {"textDocument/documentHighlight", {Need::Local, &Server::highlights}},
      {"textDocument/documentSymbol", {Need::Full, &Server::documentSymbols}},
      {"textDocument/foldingRange", {Need::Text, &Server::foldingRanges}},
      {"textDocument/selectionRange", {Need::Text, &Server::selectionRanges}},
      {"textDocument/diagnostic", {Need::Text, &Server::pullDiagnostics}},
      {"textDocument/completion", {Need::Local, &Server::completion}},
      {"textDocument/signatureHelp", {Need::Local, &Server::signatureHelp}},
      {"textDocument/semanticTokens/full", {Need::Full, &Server::semanticTokensFull}},
      {"textDocument/semanticTokens/full/delta", {Need::Full, &Server::semanticTokensDelta}},
      {"textDocument/semanticTokens/range", {Need::Local, &Server::semanticTokensRange}},
      {"textDocument/inlayHint", {Need::Local, &Server::inlayHints}},
      {"textDocument/prepareRename", {Need::Full, &Server::prepareRename}},
      {"textDocument/rename", {Need::Full, &Server::rename}},
      {"textDocument/codeAction", {Need::Local, &Server::codeActions}},
      {"textDocument/formatting", {Need::Text, &Server::formatting}},
      {"textDocument/rangeFormatting", {Need::Text, &Server::formatting}},
      {"textDocument/codeLens", {Need::Full, &Server::codeLenses}},
      {"ptxls/registerReport", {Need::Full, &Server::registerReport}},
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
    reply(id, executeCommand(params));
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
  }
  // Others (initialized, $/setTrace, didSave, ...) need nothing from us.
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

  json result = {
      {"positionEncoding", encoding_ == PositionEncoding::Utf8 ? "utf-8" : "utf-16"},
      {"textDocumentSync", {{"openClose", true}, {"change", 2}}},
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
      {"executeCommandProvider", {{"commands", {std::string(kExplainRuleCommand)}}}},
      {"codeLensProvider", {{"resolveProvider", false}}},
  };
  return {{"capabilities", result}, {"serverInfo", {{"name", "ptxls"}, {"version", PTXLS_VERSION}}}};
}

// arguments: [RULE] (a code such as "ALN001" or a name such as "mbarrier-alignment").
// Result: {code, name, category, severity, summary, documentation (markdown), href}.
json Server::executeCommand(const json& params) {
  if (!params.is_object() || !params.contains("command") || !params["command"].is_string()) {
    throw InvalidParams{"workspace/executeCommand needs a 'command' string"};
  }
  std::string command = params["command"].get<std::string>();
  if (command != kExplainRuleCommand) throw InvalidParams{"unknown command '" + command + "'"};
  const json* arguments = params.contains("arguments") ? &params["arguments"] : nullptr;
  if (arguments == nullptr || !arguments->is_array() || arguments->empty() || !(*arguments)[0].is_string()) {
    throw InvalidParams{command + " needs one argument: a rule code or name"};
  }
  std::string wanted = (*arguments)[0].get<std::string>();
  const RuleMeta* rule = findRule(wanted);
  if (rule == nullptr) throw InvalidParams{"no rule named '" + wanted + "'"};
  return {{"code", rule->code},
          {"name", rule->name},
          {"category", toString(rule->category)},
          {"severity", toString(rule->defaultSeverity)},
          {"summary", rule->summary},
          {"documentation", ruleDocumentation(rule->code)},
          {"href", std::string(kRuleDocsBase) + std::string(rule->code) + ".md"}};
}

Settings Server::settingsFor(const std::string& uri) {
  Settings settings = clientSettings_;
  auto path = pathOfUri(uri);
  if (!path) return settings;
  auto projectFile = findProjectFile(*path);
  if (!projectFile) return settings;
  std::ifstream in(*projectFile);
  std::stringstream contents;
  contents << in.rdbuf();
  json project = json::parse(contents.str(), nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
  if (project.is_discarded()) {
    log(1, projectFile->string() + ": not valid JSON; ignored");
    return settings;
  }
  for (const std::string& problem : mergeSettings(settings, project)) log(2, projectFile->string() + ": " + problem);
  return settings;
}

void Server::applySettingsToOpenDocuments() {
  for (const std::string& uri : scheduler_->openDocuments()) {
    Settings settings = settingsFor(uri);
    // One critical section: the analysis under the new options can finish (onAnalysis) as
    // soon as setLintOptions wakes a worker, and must find what it is awaited for. (Lock
    // order as in onAnalysis: deferredMutex_, then the scheduler's.)
    std::lock_guard lock(deferredMutex_);
    documentSettings_[uri] = settings;
    std::uint64_t serial = scheduler_->setLintOptions(uri, lintOptionsFor(settings));
    bool anyRefresh = diagnosticRefreshSupported_ || inlayHintRefreshSupported_ || codeLensRefreshSupported_;
    if (anyRefresh && serial != 0) awaitingRefresh_[uri] = serial;
  }
}

void Server::didOpen(const json& params) {
  const json& item = member(params, "textDocument");
  std::string uri = stringMember(item, "uri");
  std::string text = stringMember(item, "text");
  const json& version = member(item, "version");
  if (!version.is_number_integer()) throw InvalidParams("'version' must be an integer");
  // Large files take a moment the first time: show progress where the client can.
  if (progressSupported_ && text.size() >= (std::size_t{1} << 20)) {
    std::string token = "ptxls/open/" + std::to_string(nextServerRequestId_);
    sendRequest("window/workDoneProgress/create", {{"token", token}});
    notify("$/progress", {{"token", token},
                          {"value", {{"kind", "begin"}, {"title", "Analyzing"}, {"message", uri}, {"cancellable", false}}}});
    std::lock_guard lock(deferredMutex_);
    openProgress_[uri] = token;
  }
  Settings settings = settingsFor(uri);
  {
    std::lock_guard lock(deferredMutex_);
    lastPublished_.erase(uri);
    documentSettings_[uri] = settings;
  }
  scheduler_->open(uri, std::move(text), version.get<std::int64_t>(), lintOptionsFor(settings));
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
  std::vector<Deferred> orphans;
  bool refresh = false;
  {
    std::lock_guard lock(deferredMutex_);
    if (auto it = deferred_.find(uri); it != deferred_.end()) {
      orphans = std::move(it->second);
      deferred_.erase(it);
    }
    lastPublished_.erase(uri);
    openProgress_.erase(uri);
    documentSettings_.erase(uri);
    refresh = awaitingRefresh_.erase(uri) != 0 && awaitingRefresh_.empty();
  }
  if (refresh) sendRefreshRequests();
  {
    std::lock_guard lock(tokensMutex_);
    lastTokens_.erase(uri);
  }
  deferredDrained_.notify_all();
  for (const Deferred& request : orphans) replyError(request.id, kInvalidParams, "document was closed: " + uri);
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
  std::optional<Deferred> cancelled;
  {
    std::lock_guard lock(deferredMutex_);
    for (auto& [uri, requests] : deferred_) {
      auto it = std::find_if(requests.begin(), requests.end(), [&](const Deferred& d) { return d.id == id; });
      if (it != requests.end()) {
        cancelled = std::move(*it);
        requests.erase(it);
        break;
      }
    }
  }
  deferredDrained_.notify_all();
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
    std::lock_guard lock(deferredMutex_);
    Scheduler::View view = scheduler_->view(uri);
    if (!view.open) throw InvalidParams("document is not open: " + uri);
    analysis = usableAnalysis(view, route.need, params);
    if (!analysis) deferred_[uri].push_back({id, method, params});
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
    reply(id, (this->*route.handler)(analysis, params));
  } catch (const InvalidParams& error) {
    replyError(id, kInvalidParams, error.message);
  } catch (const RequestFailed& error) {
    replyError(id, kRequestFailed, error.message);
  } catch (const std::exception& error) {
    replyError(id, kInternalError, method + ": " + error.what());
  }
}

void Server::onAnalysis(const std::string& uri, const std::shared_ptr<const Analysis>& analysis) {
  std::vector<std::pair<Deferred, std::shared_ptr<const Analysis>>> ready;
  std::string progressToken;
  bool publish = false;
  {
    std::lock_guard lock(deferredMutex_);
    Scheduler::View view = scheduler_->view(uri);
    if (!view.open) return;
    if (analysis->version == view.version) {
      publish = pushDiagnostics_;
      if (auto it = openProgress_.find(uri); it != openProgress_.end()) {
        progressToken = it->second;
        openProgress_.erase(it);
      }
    }
    if (auto it = deferred_.find(uri); it != deferred_.end()) {
      auto& waiting = it->second;
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
      if (waiting.empty()) deferred_.erase(it);
    }
  }
  if (publish) publishDiagnostics(uri, *analysis);
  // Clients that pull diagnostics ask again only when told: once every open document has a
  // full analysis under the new settings, tell them (workspace/diagnostic/refresh).
  bool refresh = false;
  if (analysis->isFull()) {
    std::lock_guard lock(deferredMutex_);
    auto it = awaitingRefresh_.find(uri);
    if (it != awaitingRefresh_.end() && analysis->settingsSerial >= it->second) {
      awaitingRefresh_.erase(it);
      refresh = awaitingRefresh_.empty();
    }
  }
  if (refresh) sendRefreshRequests();
  if (!progressToken.empty()) notify("$/progress", {{"token", progressToken}, {"value", {{"kind", "end"}}}});
  for (auto& [request, usable] : ready) answer(request.id, request.method, routes_.find(request.method)->second, *usable, request.params);
  if (!ready.empty()) deferredDrained_.notify_all();
  // Requests still waiting need the full analysis that follows an incremental one.
  bool stillWaiting = false;
  {
    std::lock_guard lock(deferredMutex_);
    stillWaiting = deferred_.contains(uri);
  }
  if (stillWaiting) scheduler_->hurry(uri, true);
}

void Server::waitIdle() {
  scheduler_->waitIdle();
  std::unique_lock lock(deferredMutex_);
  deferredDrained_.wait_for(lock, std::chrono::seconds(30), [&] { return deferred_.empty(); });
}

json Server::diagnosticsJson(const std::string& uri, const Analysis& analysis) const {
  json diagnostics = json::array();
  for (const Diagnostic& diagnostic : analysis.result.diagnostics) {
    std::string link(kRuleDocsBase);
    link += diagnostic.rule;
    link += ".md";
    json item = {{"range", rangeJson(analysis, diagnostic.range, encoding_)},
                 {"severity", severityCode(diagnostic.severity)},
                 {"code", diagnostic.rule},
                 {"codeDescription", {{"href", link}}},
                 {"source", "ptxls"},
                 {"message", diagnostic.message}};
    if (!diagnostic.related.empty()) {
      json related = json::array();
      for (const RelatedInformation& info : diagnostic.related) {
        related.push_back({{"location", {{"uri", uri}, {"range", rangeJson(analysis, info.range, encoding_)}}},
                           {"message", info.message}});
      }
      item["relatedInformation"] = std::move(related);
    }
    diagnostics.push_back(std::move(item));
  }
  return diagnostics;
}

void Server::publishDiagnostics(const std::string& uri, const Analysis& analysis) {
  json diagnostics = diagnosticsJson(uri, analysis);
  json params = {{"uri", uri}, {"version", analysis.version}, {"diagnostics", std::move(diagnostics)}};
  std::string body = params.dump(-1, ' ', false, json::error_handler_t::replace);
  {
    // An incremental result followed by the full one for the same version usually says the
    // same thing: publish it once.
    std::lock_guard lock(deferredMutex_);
    std::string& last = lastPublished_[uri];
    if (last == body) return;
    last = body;
  }
  notify("textDocument/publishDiagnostics", std::move(params));
}

json Server::pullDiagnostics(const Analysis& analysis, const json& params) {
  // The same version under other settings is another result: the id names both.
  std::string resultId = std::to_string(analysis.version) + "." + std::to_string(analysis.settingsSerial) +
                         (analysis.isFull() ? "f" : "i");
  if (params.contains("previousResultId") && params["previousResultId"] == resultId) {
    return {{"kind", "unchanged"}, {"resultId", resultId}};
  }
  json items = diagnosticsJson(documentUri(params), analysis);
  return {{"kind", "full"}, {"resultId", resultId}, {"items", std::move(items)}};
}

json Server::hover(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  auto result = hoverAt(*analysis.text, analysis.result, offset, &analysis.lines);
  if (!result) return nullptr;
  return {{"contents", {{"kind", "markdown"}, {"value", result->markdown}}},
          {"range", rangeJson(analysis, result->range, encoding_)}};
}

json Server::definition(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  auto target = definitionAt(analysis.result.module, offset);
  if (!target) return nullptr;
  return {{"uri", documentUri(params)}, {"range", rangeJson(analysis, *target, encoding_)}};
}

json Server::references(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  bool includeDeclaration = isTrue(params, {"context", "includeDeclaration"});
  std::string uri = documentUri(params);
  json result = json::array();
  for (ByteRange range : referencesAt(*analysis.text, analysis.result.module, offset, includeDeclaration)) {
    result.push_back({{"uri", uri}, {"range", rangeJson(analysis, range, encoding_)}});
  }
  return result;
}

json Server::highlights(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  json result = json::array();
  for (ByteRange range : referencesAt(*analysis.text, analysis.result.module, offset, /*includeDeclaration=*/true)) {
    result.push_back({{"range", rangeJson(analysis, range, encoding_)}, {"kind", 1}});
  }
  return result;
}

json Server::documentSymbols(const Analysis& analysis, const json&) {
  // LSP SymbolKind numbers.
  auto kindNumber = [](OutlineKind kind) {
    switch (kind) {
      case OutlineKind::Kernel: return 12;     // Function
      case OutlineKind::Function: return 12;   // Function
      case OutlineKind::Parameter: return 13;  // Variable
      case OutlineKind::Register: return 13;   // Variable
      case OutlineKind::Variable: return 13;   // Variable
      case OutlineKind::Label: return 20;      // Key
    }
    return 13;
  };
  std::function<json(const OutlineItem&)> convert = [&](const OutlineItem& item) {
    json symbol = {{"name", item.name.empty() ? std::string("(unnamed)") : item.name},
                   {"kind", kindNumber(item.kind)},
                   {"range", rangeJson(analysis, item.range, encoding_)},
                   {"selectionRange", rangeJson(analysis, item.selectionRange, encoding_)}};
    if (!item.detail.empty()) symbol["detail"] = item.detail;
    if (!item.children.empty()) {
      json children = json::array();
      for (const OutlineItem& child : item.children) children.push_back(convert(child));
      symbol["children"] = std::move(children);
    }
    return symbol;
  };
  json result = json::array();
  for (const OutlineItem& item : documentOutline(analysis.result.module)) result.push_back(convert(item));
  return result;
}

json Server::foldingRanges(const Analysis& analysis, const json&) {
  json result = json::array();
  for (const FoldingRegion& region : foldingRegions(analysis.result.tree, analysis.lines)) {
    json range = {{"startLine", region.startLine}, {"endLine", region.endLine}};
    if (region.isComment) range["kind"] = "comment";
    result.push_back(std::move(range));
  }
  return result;
}

json Server::selectionRanges(const Analysis& analysis, const json& params) {
  const json& positions = member(params, "positions");
  if (!positions.is_array()) throw InvalidParams("'positions' must be an array");
  TSNode root = analysis.result.tree.root();
  json result = json::array();
  for (const json& position : positions) {
    std::uint32_t offset = offsetIn(analysis, positionOf(position), encoding_);
    // The chain of distinct enclosing node ranges, innermost first (word, operand,
    // statement, block, function, file).
    std::vector<ByteRange> chain;
    if (!ts_node_is_null(root)) {
      TSNode node = ts_node_descendant_for_byte_range(root, offset, offset);
      for (; !ts_node_is_null(node); node = ts_node_parent(node)) {
        ByteRange range{ts_node_start_byte(node), ts_node_end_byte(node)};
        if (chain.empty() || chain.back().begin != range.begin || chain.back().end != range.end) chain.push_back(range);
      }
    }
    if (chain.empty()) chain.push_back({offset, offset});
    json selection = nullptr;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      json inner = {{"range", rangeJson(analysis, *it, encoding_)}};
      if (!selection.is_null()) inner["parent"] = std::move(selection);
      selection = std::move(inner);
    }
    result.push_back(std::move(selection));
  }
  return result;
}

json Server::workspaceSymbols(const json& params) {
  std::string query = params.is_object() && params.contains("query") && params["query"].is_string()
                          ? params["query"].get<std::string>()
                          : std::string();
  // Every open document's newest model: module-level names are in incremental ones too.
  std::vector<std::shared_ptr<const Analysis>> analyses;
  std::vector<WorkspaceDocument> documents;
  for (const std::string& uri : scheduler_->openDocuments()) {
    Scheduler::View view = scheduler_->view(uri);
    std::shared_ptr<const Analysis> analysis = view.full ? view.full : view.latest;
    if (!analysis) continue;
    analyses.push_back(analysis);
    documents.push_back({uri, &analysis->result.module});
  }
  json result = json::array();
  for (const WorkspaceSymbolMatch& match : ptx::lsp::workspaceSymbols(documents, query, 1000)) {
    const Analysis* analysis = nullptr;
    for (std::size_t i = 0; i < documents.size(); ++i) {
      if (documents[i].uri == match.uri) analysis = analyses[i].get();
    }
    if (analysis == nullptr) continue;
    json symbol = {{"name", match.name},
                   {"kind", match.kind == OutlineKind::Variable ? 13 : 12},
                   {"location", {{"uri", match.uri}, {"range", rangeJson(*analysis, match.selectionRange, encoding_)}}}};
    if (!match.detail.empty()) symbol["containerName"] = match.detail;
    result.push_back(std::move(symbol));
  }
  return result;
}

namespace {

int completionKindNumber(CompletionKind kind) {
  // LSP CompletionItemKind.
  switch (kind) {
    case CompletionKind::Opcode: return 14;           // Keyword
    case CompletionKind::Modifier: return 20;         // EnumMember
    case CompletionKind::Type: return 25;             // TypeParameter
    case CompletionKind::Register: return 6;          // Variable
    case CompletionKind::SpecialRegister: return 21;  // Constant
    case CompletionKind::Label: return 18;            // Reference
    case CompletionKind::Variable: return 6;          // Variable
    case CompletionKind::Function: return 3;          // Function
    case CompletionKind::Parameter: return 5;         // Field
    case CompletionKind::Directive: return 14;        // Keyword
    case CompletionKind::Keyword: return 14;          // Keyword
  }
  return 1;
}

json textEditsJson(const Analysis& analysis, const std::vector<FixEdit>& edits, PositionEncoding encoding) {
  json result = json::array();
  for (const FixEdit& edit : edits) {
    result.push_back({{"range", rangeJson(analysis, edit.range, encoding)}, {"newText", edit.newText}});
  }
  return result;
}

}  // namespace

json Server::completion(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  json items = json::array();
  for (const CompletionItem& item : completeAt(*analysis.text, analysis.result, offset)) {
    json entry = {{"label", item.label},
                  {"kind", completionKindNumber(item.kind)},
                  {"textEdit", {{"range", rangeJson(analysis, item.replace, encoding_)},
                                {"newText", item.insertText.empty() ? item.label : item.insertText}}}};
    if (!item.detail.empty()) entry["detail"] = item.detail;
    if (!item.documentation.empty()) entry["documentation"] = {{"kind", "markdown"}, {"value", item.documentation}};
    if (!item.sortText.empty()) entry["sortText"] = item.sortText;
    items.push_back(std::move(entry));
  }
  return {{"isIncomplete", false}, {"items", std::move(items)}};
}

json Server::signatureHelp(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  auto help = signatureHelpAt(*analysis.text, analysis.result, offset);
  if (!help || help->signatures.empty()) return nullptr;
  json signatures = json::array();
  for (const SignatureInfo& signature : help->signatures) {
    json parameters = json::array();
    for (ByteRange parameter : signature.parameters) parameters.push_back({{"label", {parameter.begin, parameter.end}}});
    json entry = {{"label", signature.label}, {"parameters", std::move(parameters)}};
    if (!signature.documentation.empty()) entry["documentation"] = {{"kind", "markdown"}, {"value", signature.documentation}};
    signatures.push_back(std::move(entry));
  }
  return {{"signatures", std::move(signatures)},
          {"activeSignature", help->activeSignature},
          {"activeParameter", help->activeParameter}};
}

json Server::rememberTokens(const std::string& uri, std::vector<std::uint32_t> data) {
  std::lock_guard lock(tokensMutex_);
  std::string resultId = std::to_string(nextTokensId_++);
  json result = {{"resultId", resultId}, {"data", data}};
  lastTokens_[uri] = {resultId, std::move(data)};
  return result;
}

json Server::semanticTokensFull(const Analysis& analysis, const json& params) {
  std::vector<SemanticToken> tokens = semanticTokens(*analysis.text, analysis.result);
  return rememberTokens(documentUri(params), encodeSemanticTokens(*analysis.text, analysis.lines, tokens, encoding_));
}

json Server::semanticTokensDelta(const Analysis& analysis, const json& params) {
  std::string uri = documentUri(params);
  std::vector<SemanticToken> tokens = semanticTokens(*analysis.text, analysis.result);
  std::vector<std::uint32_t> data = encodeSemanticTokens(*analysis.text, analysis.lines, tokens, encoding_);
  std::optional<std::vector<std::uint32_t>> previous;
  {
    std::lock_guard lock(tokensMutex_);
    auto it = lastTokens_.find(uri);
    if (it != lastTokens_.end() && params.contains("previousResultId") && params["previousResultId"] == it->second.first) {
      previous = it->second.second;
    }
  }
  // Without the previous result the client gets the whole set (LSP allows either answer).
  if (!previous) return rememberTokens(uri, std::move(data));
  json edits = json::array();
  for (const SemanticTokensEdit& edit : diffSemanticTokens(*previous, data)) {
    edits.push_back({{"start", edit.start}, {"deleteCount", edit.deleteCount}, {"data", edit.data}});
  }
  json remembered = rememberTokens(uri, std::move(data));
  return {{"resultId", remembered["resultId"]}, {"edits", std::move(edits)}};
}

json Server::semanticTokensRange(const Analysis& analysis, const json& params) {
  Range range = rangeOf(member(params, "range"));
  ByteRange bytes{offsetIn(analysis, range.start, encoding_), offsetIn(analysis, range.end, encoding_)};
  std::vector<SemanticToken> tokens = semanticTokens(*analysis.text, analysis.result, bytes);
  return {{"data", encodeSemanticTokens(*analysis.text, analysis.lines, tokens, encoding_)}};
}

// The code lens command: a client-side command (the VS Code extension shows the report and
// its plot; other editors may map it), with the document and the function's name.
constexpr std::string_view kShowRegisterReportCommand = "ptxls.showRegisterReport";

std::optional<std::string> Server::targetSettingFor(const std::string& uri) {
  std::lock_guard lock(deferredMutex_);
  auto it = documentSettings_.find(uri);
  return it != documentSettings_.end() ? it->second.target : clientSettings_.target;
}

json Server::codeLenses(const Analysis& analysis, const json& params) {
  std::string uri = documentUri(params);
  json result = json::array();
  if (!analysis.result.tree.isComplete()) return result;
  for (const registers::FunctionRegisterReport& report : registers::reportRegisters(
           *analysis.text, analysis.result.module, analysis.registerEstimates(), targetSettingFor(uri))) {
    result.push_back({{"range", rangeJson(analysis, report.nameRange, encoding_)},
                      {"command",
                       {{"title", registers::summaryLine(report)},
                        {"command", std::string(kShowRegisterReportCommand)},
                        {"arguments", {uri, report.name}}}}});
  }
  return result;
}

// ptxls/registerReport {textDocument, position?}: every function's register report with its
// plot; `at` is the index of the function holding `position` (null when none does).
json Server::registerReport(const Analysis& analysis, const json& params) {
  std::string uri = documentUri(params);
  std::optional<std::uint32_t> offset;
  if (params.contains("position") && !params["position"].is_null()) {
    offset = offsetIn(analysis, positionOf(params["position"]), encoding_);
  }
  json functions = json::array();
  json at = nullptr;
  std::string target;
  if (analysis.result.tree.isComplete()) {
    const Module& module = analysis.result.module;
    LineIndex lines(*analysis.text);
    for (const registers::FunctionRegisterReport& report :
         registers::reportRegisters(*analysis.text, module, analysis.registerEstimates(), targetSettingFor(uri))) {
      target = report.target;
      const FunctionInfo& function = module.functions[report.estimate.function];
      ByteRange extent = module.symbols[function.symbol].declarationRange;
      if (function.bodyScope != kNoScope) extent.end = std::max(extent.end, module.scopes[function.bodyScope].range.end);
      if (offset && *offset >= extent.begin && *offset <= extent.end) at = functions.size();
      registers::PlotInput plot = registers::plotInputFor(*analysis.text, lines, module, report);
      json occupancy = nullptr;
      if (report.occupancy) {
        occupancy = {{"target", report.target},
                     {"threadsPerBlock", report.threadsPerBlock},
                     {"threadsAssumed", report.threadsAssumed},
                     {"sharedBytes", report.sharedBytes},
                     {"blocksPerSm", report.occupancy->blocksPerSm},
                     {"activeWarpsPerSm", report.occupancy->activeWarpsPerSm},
                     {"maxWarpsPerSm", report.occupancy->maxWarpsPerSm},
                     {"fraction", report.occupancy->fraction},
                     {"limitedBy", report.occupancy->limitedBy},
                     {"fewerRegistersForMoreBlocks", report.occupancy->fewerRegistersForMoreBlocks},
                     {"blocksWithFewerRegisters", report.occupancy->blocksWithFewerRegisters}};
      }
      ByteRange peak = module.instructions[report.estimate.peakInstruction].statement;
      functions.push_back({{"name", report.name},
                           {"kind", report.isEntry ? "entry" : "func"},
                           {"range", rangeJson(analysis, report.nameRange, encoding_)},
                           {"registers", report.estimate.registers},
                           {"maxLive", report.estimate.maxLiveUnits},
                           {"spills", report.estimate.spilledUnits},
                           {"budget", report.estimate.budget},
                           {"budgetReason", report.estimate.budgetReason},
                           {"peak", {{"range", rangeJson(analysis, peak, encoding_)}, {"live", plot.liveAtPeak}}},
                           {"occupancy", std::move(occupancy)},
                           {"confidence", report.confidence},
                           {"summary", registers::summaryLine(report)},
                           {"svg", registers::renderRegisterPlot(plot)}});
    }
  }
  return {{"uri", uri}, {"target", target}, {"functions", std::move(functions)}, {"at", at}};
}

json Server::inlayHints(const Analysis& analysis, const json& params) {
  Range range = rangeOf(member(params, "range"));
  ByteRange bytes{offsetIn(analysis, range.start, encoding_), offsetIn(analysis, range.end, encoding_)};
  json result = json::array();
  bool liveRegisters = false;
  {
    std::lock_guard lock(deferredMutex_);
    auto it = documentSettings_.find(documentUri(params));
    liveRegisters = it != documentSettings_.end() ? it->second.liveRegisterHints : clientSettings_.liveRegisterHints;
  }
  if (liveRegisters && analysis.result.tree.isComplete() && analysis.isFull()) {
    // After each instruction in the range: the 32-bit registers live across it.
    const Module& module = analysis.result.module;
    for (const registers::RegisterEstimate& estimate : analysis.registerEstimates()) {
      const FunctionInfo& function = module.functions[estimate.function];
      for (std::uint32_t i = 0; i < estimate.liveUnits.size(); ++i) {
        const InstructionSite& site = module.instructions[function.firstInstruction + i];
        if (site.statement.end < bytes.begin || site.statement.end > bytes.end) continue;
        result.push_back({{"position", toJson(positionAt(*analysis.text, analysis.lines, site.statement.end, encoding_))},
                          {"label", std::to_string(estimate.liveUnits[i]) + " live"},
                          {"paddingLeft", true},
                          {"tooltip", "32-bit registers live across this instruction (estimate)"}});
      }
    }
  }
  for (const InlayHint& hint : ptx::lsp::inlayHints(*analysis.text, analysis.result, bytes)) {
    result.push_back({{"position", toJson(positionAt(*analysis.text, analysis.lines, hint.offset, encoding_))},
                      {"label", hint.label},
                      {"kind", static_cast<int>(hint.kind)},
                      {"paddingLeft", hint.paddingLeft},
                      {"paddingRight", hint.paddingRight}});
  }
  return result;
}

json Server::prepareRename(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  auto range = ptx::lsp::prepareRename(*analysis.text, analysis.result.module, offset);
  if (!range) return nullptr;
  return {{"range", rangeJson(analysis, *range, encoding_)},
          {"placeholder", analysis.text->substr(range->begin, range->end - range->begin)}};
}

json Server::rename(const Analysis& analysis, const json& params) {
  std::uint32_t offset = offsetIn(analysis, positionOf(member(params, "position")), encoding_);
  std::string newName = stringMember(params, "newName");
  RenameResult result = ptx::lsp::rename(*analysis.text, analysis.result.module, offset, newName);
  if (!result.ok()) throw RequestFailed(result.error);
  return {{"changes", {{documentUri(params), textEditsJson(analysis, result.edits, encoding_)}}}};
}

json Server::codeActions(const Analysis& analysis, const json& params) {
  std::string uri = documentUri(params);
  Range range = rangeOf(member(params, "range"));
  ByteRange bytes{offsetIn(analysis, range.start, encoding_), offsetIn(analysis, range.end, encoding_)};
  // Only quick fixes exist: a client asking for other kinds gets none.
  if (params.contains("context") && params["context"].contains("only") && params["context"]["only"].is_array()) {
    bool wantsQuickFix = false;
    for (const json& kind : params["context"]["only"]) {
      if (kind == "quickfix" || kind == "") wantsQuickFix = true;
    }
    if (!wantsQuickFix) return json::array();
  }
  const json* clientDiagnostics = nullptr;
  if (params.contains("context") && params["context"].contains("diagnostics") && params["context"]["diagnostics"].is_array()) {
    clientDiagnostics = &params["context"]["diagnostics"];
  }
  json result = json::array();
  for (const CodeAction& action : ptx::lsp::codeActions(*analysis.text, analysis.result, bytes)) {
    json diagnosticRange = rangeJson(analysis, action.diagnosticRange, encoding_);
    // Link the client's own copy of the diagnostic when it sent one (matched by code and range).
    json diagnostic;
    if (clientDiagnostics != nullptr) {
      for (const json& candidate : *clientDiagnostics) {
        if (candidate.value("code", json()) == action.rule && candidate.value("range", json()) == diagnosticRange) {
          diagnostic = candidate;
        }
      }
    }
    if (diagnostic.is_null()) {
      diagnostic = {{"range", diagnosticRange}, {"code", action.rule}, {"source", "ptxls"}, {"message", action.diagnosticMessage}};
    }
    json entry = {{"title", action.title},
                  {"kind", action.kind},
                  {"diagnostics", {diagnostic}},
                  {"edit", {{"changes", {{uri, textEditsJson(analysis, action.edits, encoding_)}}}}}};
    if (action.isPreferred) entry["isPreferred"] = true;
    result.push_back(std::move(entry));
  }
  return result;
}

json Server::formatting(const Analysis& analysis, const json& params) {
  std::string uri = documentUri(params);
  FormatOptions options;
  // The editor's indentation choice, unless the project fixed one (nvcc's PTX uses tabs).
  if (params.contains("options") && params["options"].is_object()) {
    const json& editor = params["options"];
    if (editor.contains("insertSpaces") && editor["insertSpaces"].is_boolean()) options.useTabs = !editor["insertSpaces"].get<bool>();
    if (editor.contains("tabSize") && editor["tabSize"].is_number_unsigned()) {
      options.indentWidth = std::min(16U, editor["tabSize"].get<unsigned>());
    }
  }
  {
    std::lock_guard lock(deferredMutex_);
    if (auto it = documentSettings_.find(uri); it != documentSettings_.end()) {
      const FormatSettings& project = it->second.format;
      if (project.useTabs) options.useTabs = *project.useTabs;
      if (project.indentWidth) options.indentWidth = *project.indentWidth;
      if (project.maxBlankLines) options.maxBlankLines = *project.maxBlankLines;
    }
  }
  std::optional<ByteRange> bytes;
  if (params.contains("range")) {
    Range range = rangeOf(params["range"]);
    bytes = ByteRange{offsetIn(analysis, range.start, encoding_), offsetIn(analysis, range.end, encoding_)};
  }
  if (!analysis.result.tree.isComplete()) return json::array();  // Binary or oversized text.
  json result = json::array();
  for (const TextEdit& edit : formatEdits(*analysis.text, analysis.result.tree, options, bytes)) {
    result.push_back({{"range", rangeJson(analysis, edit.range, encoding_)}, {"newText", edit.newText}});
  }
  return result;
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

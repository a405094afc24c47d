// Server: JSON-RPC dispatch and the LSP lifecycle.
#include "Server.h"

#include <exception>

#include "features/DocumentSymbols.h"
#include "features/Folding.h"
#include "features/Hover.h"
#include "features/Navigation.h"

#ifndef PTXLS_VERSION
#define PTXLS_VERSION "0.0.0"
#endif

namespace ptx::lsp {
namespace {

using json = nlohmann::json;

// Thrown by handlers for malformed params; becomes an InvalidParams error.
struct InvalidParams : std::exception {
  explicit InvalidParams(std::string why) : message(std::move(why)) {}
  const char* what() const noexcept override { return message.c_str(); }
  std::string message;
};

const json& member(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key)) throw InvalidParams(std::string("missing '") + key + "'");
  return object[key];
}

std::string stringMember(const json& object, const char* key) {
  const json& value = member(object, key);
  if (!value.is_string()) throw InvalidParams(std::string("'") + key + "' must be a string");
  return value.get<std::string>();
}

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

json toJson(Position position) { return {{"line", position.line}, {"character", position.character}}; }

json rangeJson(const Document& document, ByteRange range, PositionEncoding encoding) {
  return {{"start", toJson(positionAt(document.text(), document.lines(), range.begin, encoding))},
          {"end", toJson(positionAt(document.text(), document.lines(), range.end, encoding))}};
}

int severityCode(Severity severity) {
  switch (severity) {
    case Severity::Error: return 1;
    case Severity::Warning: return 2;
    case Severity::Information: return 3;
    case Severity::Hint: return 4;
  }
  return 1;
}

}  // namespace

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
    // A response to a request we sent (none yet) or garbage: only requests get an error.
    if (hasId && !message.contains("result") && !message.contains("error")) {
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
  replyError(nullptr, kParseError, std::string("bad message header: ") + std::string(problem));
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
    shutdownRequested_ = true;
    reply(id, nullptr);
  } else if (method == "textDocument/hover") {
    reply(id, hover(params));
  } else if (method == "textDocument/definition" || method == "textDocument/declaration") {
    reply(id, definition(params));
  } else if (method == "textDocument/references") {
    reply(id, references(params, /*highlights=*/false));
  } else if (method == "textDocument/documentHighlight") {
    reply(id, references(params, /*highlights=*/true));
  } else if (method == "textDocument/documentSymbol") {
    reply(id, documentSymbols(params));
  } else if (method == "textDocument/foldingRange") {
    reply(id, foldingRanges(params));
  } else if (method == "textDocument/selectionRange") {
    reply(id, selectionRanges(params));
  } else {
    replyError(id, kMethodNotFound, "unknown method '" + method + "'");
  }
}

void Server::notification(const std::string& method, const json& params) {
  if (method == "exit") {
    exitRequested_ = true;
    return;
  }
  // Before initialize, notifications are dropped (LSP 3.17, "initialize" request).
  if (!initialized_ || shutdownRequested_) return;
  if (method == "initialized" || method == "$/cancelRequest" || method == "$/setTrace") return;
  if (method == "textDocument/didOpen") {
    didOpen(params);
  } else if (method == "textDocument/didChange") {
    didChange(params);
  } else if (method == "textDocument/didClose") {
    didClose(params);
  }
  // Other notifications (workspace/didChangeConfiguration, ...) are not used yet.
}

json Server::initialize(const json& params) {
  // Prefer UTF-8 positions when the client offers them: no transcoding on our side.
  if (params.is_object() && params.contains("capabilities")) {
    const json& capabilities = params["capabilities"];
    if (capabilities.is_object() && capabilities.contains("general") && capabilities["general"].is_object() &&
        capabilities["general"].contains("positionEncodings") &&
        capabilities["general"]["positionEncodings"].is_array()) {
      for (const json& encoding : capabilities["general"]["positionEncodings"]) {
        if (encoding == "utf-8") encoding_ = PositionEncoding::Utf8;
      }
    }
  }
  json capabilities = {
      {"positionEncoding", encoding_ == PositionEncoding::Utf8 ? "utf-8" : "utf-16"},
      {"textDocumentSync", {{"openClose", true}, {"change", 2}}},
      {"hoverProvider", true},
      {"definitionProvider", true},
      {"declarationProvider", true},
      {"referencesProvider", true},
      {"documentHighlightProvider", true},
      {"documentSymbolProvider", true},
      {"foldingRangeProvider", true},
      {"selectionRangeProvider", true},
  };
  return {{"capabilities", capabilities}, {"serverInfo", {{"name", "ptxls"}, {"version", PTXLS_VERSION}}}};
}

void Server::didOpen(const json& params) {
  const json& item = member(params, "textDocument");
  std::string uri = stringMember(item, "uri");
  std::string text = stringMember(item, "text");
  const json& version = member(item, "version");
  if (!version.is_number_integer()) throw InvalidParams("'version' must be an integer");
  auto document = std::make_unique<Document>(uri, std::move(text), version.get<std::int64_t>());
  Document& opened = *document;
  documents_[uri] = std::move(document);
  publishDiagnostics(opened);
}

void Server::didChange(const json& params) {
  const json& identifier = member(params, "textDocument");
  std::string uri = stringMember(identifier, "uri");
  Document* document = find(uri);
  if (document == nullptr) {
    log(2, "didChange for a document that is not open: " + uri);
    return;
  }
  const json& changes = member(params, "contentChanges");
  if (!changes.is_array()) throw InvalidParams("'contentChanges' must be an array");
  // Validate every change before applying any, so a bad batch leaves the text untouched.
  for (const json& change : changes) {
    stringMember(change, "text");
    if (change.contains("range")) {
      positionOf(member(change["range"], "start"));
      positionOf(member(change["range"], "end"));
    }
  }
  for (const json& change : changes) {
    std::optional<Range> range;
    if (change.contains("range")) {
      range = Range{positionOf(change["range"]["start"]), positionOf(change["range"]["end"])};
    }
    document->applyChange(range, change["text"].get<std::string>(), encoding_);
  }
  if (identifier.contains("version") && identifier["version"].is_number_integer()) {
    document->setVersion(identifier["version"].get<std::int64_t>());
  }
  publishDiagnostics(*document);
}

void Server::didClose(const json& params) {
  std::string uri = stringMember(member(params, "textDocument"), "uri");
  if (documents_.erase(uri) > 0) notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}});
}

json Server::hover(const json& params) {
  std::string uri = stringMember(member(params, "textDocument"), "uri");
  Position position = positionOf(member(params, "position"));
  Document* document = find(uri);
  if (document == nullptr) throw InvalidParams("document is not open: " + uri);
  std::uint32_t offset = offsetAt(document->text(), document->lines(), position, encoding_);
  auto result = hoverAt(document->text(), document->analysis(), offset);
  if (!result) return nullptr;
  return {{"contents", {{"kind", "markdown"}, {"value", result->markdown}}},
          {"range", rangeJson(*document, result->range, encoding_)}};
}

Document& Server::documentAt(const json& params, std::uint32_t& offset) {
  std::string uri = stringMember(member(params, "textDocument"), "uri");
  Position position = positionOf(member(params, "position"));
  Document* document = find(uri);
  if (document == nullptr) throw InvalidParams("document is not open: " + uri);
  offset = offsetAt(document->text(), document->lines(), position, encoding_);
  return *document;
}

json Server::definition(const json& params) {
  std::uint32_t offset = 0;
  Document& document = documentAt(params, offset);
  auto target = definitionAt(document.analysis().module, offset);
  if (!target) return nullptr;
  return {{"uri", document.uri()}, {"range", rangeJson(document, *target, encoding_)}};
}

json Server::references(const json& params, bool highlights) {
  std::uint32_t offset = 0;
  Document& document = documentAt(params, offset);
  bool includeDeclaration = highlights;
  if (!highlights && params.contains("context") && params["context"].is_object() &&
      params["context"].contains("includeDeclaration") && params["context"]["includeDeclaration"].is_boolean()) {
    includeDeclaration = params["context"]["includeDeclaration"].get<bool>();
  }
  json result = json::array();
  for (ByteRange range : referencesAt(document.text(), document.analysis().module, offset, includeDeclaration)) {
    if (highlights) {
      result.push_back({{"range", rangeJson(document, range, encoding_)}, {"kind", 1}});
    } else {
      result.push_back({{"uri", document.uri()}, {"range", rangeJson(document, range, encoding_)}});
    }
  }
  return result;
}

json Server::documentSymbols(const json& params) {
  std::string uri = stringMember(member(params, "textDocument"), "uri");
  Document* document = find(uri);
  if (document == nullptr) throw InvalidParams("document is not open: " + uri);
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
                   {"range", rangeJson(*document, item.range, encoding_)},
                   {"selectionRange", rangeJson(*document, item.selectionRange, encoding_)}};
    if (!item.detail.empty()) symbol["detail"] = item.detail;
    if (!item.children.empty()) {
      json children = json::array();
      for (const OutlineItem& child : item.children) children.push_back(convert(child));
      symbol["children"] = std::move(children);
    }
    return symbol;
  };
  json result = json::array();
  for (const OutlineItem& item : documentOutline(document->analysis().module)) result.push_back(convert(item));
  return result;
}

json Server::foldingRanges(const json& params) {
  std::string uri = stringMember(member(params, "textDocument"), "uri");
  Document* document = find(uri);
  if (document == nullptr) throw InvalidParams("document is not open: " + uri);
  json result = json::array();
  for (const FoldingRegion& region : foldingRegions(document->analysis().tree, document->lines())) {
    json range = {{"startLine", region.startLine}, {"endLine", region.endLine}};
    if (region.isComment) range["kind"] = "comment";
    result.push_back(std::move(range));
  }
  return result;
}

json Server::selectionRanges(const json& params) {
  std::string uri = stringMember(member(params, "textDocument"), "uri");
  Document* document = find(uri);
  if (document == nullptr) throw InvalidParams("document is not open: " + uri);
  const json& positions = member(params, "positions");
  if (!positions.is_array()) throw InvalidParams("'positions' must be an array");
  TSNode root = document->analysis().tree.root();
  json result = json::array();
  for (const json& position : positions) {
    std::uint32_t offset = offsetAt(document->text(), document->lines(), positionOf(position), encoding_);
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
      json inner = {{"range", rangeJson(*document, *it, encoding_)}};
      if (!selection.is_null()) inner["parent"] = std::move(selection);
      selection = std::move(inner);
    }
    result.push_back(std::move(selection));
  }
  return result;
}

void Server::publishDiagnostics(Document& document) {
  const LintResult& analysis = document.analysis();
  json diagnostics = json::array();
  for (const Diagnostic& diagnostic : analysis.diagnostics) {
    json item = {{"range", rangeJson(document, diagnostic.range, encoding_)},
                 {"severity", severityCode(diagnostic.severity)},
                 {"code", diagnostic.rule},
                 {"source", "ptxls"},
                 {"message", diagnostic.message}};
    if (!diagnostic.related.empty()) {
      json related = json::array();
      for (const RelatedInformation& info : diagnostic.related) {
        related.push_back({{"location", {{"uri", document.uri()}, {"range", rangeJson(document, info.range, encoding_)}}},
                           {"message", info.message}});
      }
      item["relatedInformation"] = std::move(related);
    }
    diagnostics.push_back(std::move(item));
  }
  notify("textDocument/publishDiagnostics",
         {{"uri", document.uri()}, {"version", document.version()}, {"diagnostics", std::move(diagnostics)}});
}

Document* Server::find(const std::string& uri) {
  auto it = documents_.find(uri);
  return it == documents_.end() ? nullptr : it->second.get();
}

void Server::reply(const json& id, json result) {
  send_(json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}.dump(-1, ' ', false,
                                                                                     json::error_handler_t::replace));
}

void Server::replyError(const json& id, int code, std::string_view message) {
  send_(json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", std::string(message)}}}}.dump(
      -1, ' ', false, json::error_handler_t::replace));
}

void Server::notify(std::string_view method, json params) {
  send_(json{{"jsonrpc", "2.0"}, {"method", std::string(method)}, {"params", std::move(params)}}.dump(
      -1, ' ', false, json::error_handler_t::replace));
}

void Server::log(int type, std::string_view message) {
  notify("window/logMessage", {{"type", type}, {"message", std::string(message)}});
}

}  // namespace ptx::lsp

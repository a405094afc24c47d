// Server: the LSP dispatcher — lifecycle, document synchronization, diagnostics and hover.
//
// The protocol edge: it turns JSON-RPC messages into calls on documents and features and
// their results back into JSON; it knows nothing of how bytes travel (main.cpp owns the
// transport). Requests are answered in arrival order on the caller's thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "Document.h"
#include "protocol/Positions.h"

namespace ptx::lsp {

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
  explicit Server(Sender send) : send_(std::move(send)) {}

  // Handles one message body (already unframed).
  void handle(std::string_view body);
  // Reports a framing problem the transport found.
  void handleBadFrame(std::string_view problem);

  bool exitRequested() const { return exitRequested_; }
  int exitCode() const { return shutdownRequested_ ? 0 : 1; }

 private:
  void request(const nlohmann::json& id, const std::string& method, const nlohmann::json& params);
  void notification(const std::string& method, const nlohmann::json& params);

  nlohmann::json initialize(const nlohmann::json& params);
  nlohmann::json hover(const nlohmann::json& params);
  nlohmann::json definition(const nlohmann::json& params);
  nlohmann::json documentSymbols(const nlohmann::json& params);
  nlohmann::json foldingRanges(const nlohmann::json& params);
  nlohmann::json selectionRanges(const nlohmann::json& params);
  nlohmann::json references(const nlohmann::json& params, bool highlights);
  // The open document and byte offset a TextDocumentPositionParams names.
  Document& documentAt(const nlohmann::json& params, std::uint32_t& offset);
  void didOpen(const nlohmann::json& params);
  void didChange(const nlohmann::json& params);
  void didClose(const nlohmann::json& params);
  void publishDiagnostics(Document& document);

  void reply(const nlohmann::json& id, nlohmann::json result);
  void replyError(const nlohmann::json& id, int code, std::string_view message);
  void notify(std::string_view method, nlohmann::json params);
  void log(int type, std::string_view message);

  Document* find(const std::string& uri);

  Sender send_;
  bool initialized_ = false;
  bool shutdownRequested_ = false;
  bool exitRequested_ = false;
  PositionEncoding encoding_ = PositionEncoding::Utf16;
  std::map<std::string, std::unique_ptr<Document>, std::less<>> documents_;
};

}  // namespace ptx::lsp

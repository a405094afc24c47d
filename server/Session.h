// Session: what the protocol edge keeps for one open document, beside the text and analyses
// the Scheduler owns — its settings, the requests waiting for an analysis, what was last
// published and the semantic tokens last sent.
//
// The Server holds one per open document (from didOpen to didClose), all under one mutex:
// requests are answered, and analyses delivered, on worker threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "Settings.h"

namespace ptx::lsp {

// A request that waits for an analysis of its document (Server::Need).
struct PendingRequest {
  nlohmann::json id;
  std::string method;
  nlohmann::json params;
};

struct Session {
  // The client's settings overlaid with the document's project file.
  config::Settings settings;
  std::vector<PendingRequest> pending;
  // The last publishDiagnostics body sent, so the same diagnostics are not sent twice (an
  // incremental analysis and the full one of the same version usually agree).
  std::string lastPublished;
  // The work-done progress of a large document's first analysis; empty when none is shown.
  std::string progressToken;
  // Set while an analysis under new settings is awaited: the settings serial it will carry.
  // When no document awaits one any more, clients are asked to refresh what they pulled.
  std::optional<std::uint64_t> awaitedSettingsSerial;
  // The semantic tokens last sent (for textDocument/semanticTokens/full/delta) and their id.
  std::string tokensResultId;
  std::vector<std::uint32_t> tokens;
};

}  // namespace ptx::lsp

// Session: what the protocol edge keeps for one open document, beside the text and analyses
// the Scheduler owns — its settings, the requests waiting for an analysis, what was last
// published, the semantic tokens last sent, the last ptxas -v run (the verify code lens) and the
// last exact-mode run of a CUDA document (cuda.exactMode).
//
// The Server holds one per open document (from didOpen to didClose), all under one mutex:
// requests are answered, and analyses delivered, on worker threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ExactDiagnostics.h"
#include "PtxasRunner.h"
#include "Settings.h"

namespace ptx::lsp {

// A request that waits for an analysis of its document (Server::Need).
struct PendingRequest {
  nlohmann::json id;
  std::string method;
  nlohmann::json params;
};

// A ptxas -v run on one version of the document's text, for one target (the verify code lens).
// It is shown only beside an analysis of that version under that target: an edit makes it
// stale, and a new run replaces it.
struct PtxasVerification {
  std::int64_t version = 0;
  std::string target;  // What ptxas assembles for (registers::reportTarget, override included).
  bool done = false;   // False while ptxas is queued or running.
  oracle::PtxasResult result;  // When done.
  // workspace/executeCommand requests answered (with the result) when the run finishes.
  std::vector<nlohmann::json> waiting;
};

// An exact-mode run (nvcc and ptxas on the file on disk, CudaExactMode.h) for one version of a
// CUDA document's text, which was the file's contents when it ran. Shown only beside an analysis
// of that version and text: an edit makes it stale until the next save runs it again.
struct ExactModeRun {
  std::int64_t version = 0;
  std::uint64_t textHash = 0;  // exactTextHash of the text nvcc compiled.
  bool done = false;           // False while queued or running.
  std::shared_ptr<const oracle::ExactReport> report;  // When done; null when the file had changed on disk.
};

struct Session {
  // The client's settings overlaid with the document's project file.
  config::Settings settings;
  bool cuda = false;  // A CUDA C++ document: its inline PTX is analyzed (CudaDocument.h).
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
  // The last ptxas -v run asked for (Server::verifyRegisters); none until the user asks.
  std::optional<PtxasVerification> verification;
  // cuda.exactMode: set on open and save (and when the setting is turned on), cleared when the
  // run for the newest full analysis is queued; the last run asked for.
  bool exactWanted = false;
  std::optional<ExactModeRun> exact;
};

}  // namespace ptx::lsp

// Document: one open text document as the client last described it, and the immutable
// analyses computed from snapshots of it.
//
// The text is the source of truth and is edited in place as changes arrive, so no edit is
// ever lost or reordered. Analyses are immutable (shared with worker threads and with
// requests being answered); each remembers the text and version it was computed from.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "Lint.h"
#include "protocol/Positions.h"
#include "registers/RegisterPressure.h"
#include "text/LineIndex.h"

namespace ptx::lsp {

struct CudaAnalysis;  // CudaDocument.h

struct Range {
  Position start;
  Position end;
};

// One analysis of one version of a document.
struct Analysis {
  Analysis(std::shared_ptr<const std::string> analyzedText, std::int64_t analyzedVersion, LintResult analyzed)
      : text(std::move(analyzedText)), version(analyzedVersion), lines(*text), result(std::move(analyzed)) {}
  // With the line index of the same text already at hand (rescanning 4 MB costs milliseconds).
  Analysis(std::shared_ptr<const std::string> analyzedText, std::int64_t analyzedVersion, LintResult analyzed,
           const LineIndex& linesOfText)
      : text(std::move(analyzedText)), version(analyzedVersion), lines(linesOfText, *text), result(std::move(analyzed)) {}

  std::shared_ptr<const std::string> text;
  std::int64_t version;
  LineIndex lines;  // Over *text.
  LintResult result;
  // Which of the document's lint settings produced this (Scheduler::setLintOptions counts
  // them): the same version analyzed under new settings is a different result.
  std::uint64_t settingsSerial = 0;
  // Set for a CUDA document: `result` then holds only the inline-asm diagnostics (no PTX tree
  // or model), and this the asm statements the editor features read.
  std::shared_ptr<const CudaAnalysis> cuda;

  // The register estimate of every function, computed by the first request that needs it
  // (code lens, register report, live-register hints) and shared by the later ones: an
  // analysis never changes, so neither do they. Full analyses only.
  const std::vector<registers::RegisterEstimate>& registerEstimates() const {
    std::call_once(registerEstimatesOnce_, [this] {
      flow::FlowCache flows(*text, result.module);
      registerEstimates_ = registers::estimateRegisters(*text, result.module, flows);
    });
    return registerEstimates_;
  }

  // A full analysis has every function's body in its model; an incremental one only the
  // edited function's (see LintResult::focus).
  bool isFull() const { return !result.focus; }
  // Whether the model can answer questions about [begin, end).
  bool covers(std::uint32_t begin, std::uint32_t end) const {
    return !result.focus || (begin >= result.focus->begin && end <= result.focus->end);
  }

 private:
  mutable std::once_flag registerEstimatesOnce_;
  mutable std::vector<registers::RegisterEstimate> registerEstimates_;
};

// What a worker needs to analyze the current text: a copy of it and the edits since the
// previous snapshot (to reparse incrementally and re-check only what changed).
struct Snapshot {
  std::shared_ptr<const std::string> text;
  std::optional<LineIndex> lines;  // Of `text`.
  std::int64_t version = 0;
  std::vector<SyntaxEdit> edits;       // Since the previous snapshot, in order.
  std::optional<ChangedSpan> changed;  // Their union; empty when nothing changed or `fresh`.
  bool fresh = true;                   // No usable earlier snapshot: parse from scratch.
};

class Document {
 public:
  Document(std::string uri, std::string text, std::int64_t version);

  const std::string& uri() const { return uri_; }
  const std::string& text() const { return *text_; }
  std::int64_t version() const { return version_; }
  const LineIndex& lines() const { return lines_; }

  // Replaces `range` (or the whole text when absent) with `newText`.
  void applyChange(const std::optional<Range>& range, std::string_view newText, PositionEncoding encoding);
  void setVersion(std::int64_t version) { version_ = version; }

  // True when the text changed since the last snapshot.
  bool hasUnsnapshottedChanges() const { return dirty_; }
  // Shares the current text (no copy: the next edit copies it, see applyChange) and hands over
  // the edits collected since the last snapshot.
  Snapshot takeSnapshot();
  // Forgets the edit history: the next analysis starts from a fresh parse.
  void forgetEdits();

 private:
  std::string uri_;
  // The text is shared with the snapshots and analyses taken of it, so a large document is
  // held once, not once per copy: an edit changes it in place only while nobody else holds
  // it, and otherwise writes the edited text to a new buffer (copy on write).
  std::shared_ptr<std::string> text_;
  std::int64_t version_;
  LineIndex lines_;
  bool dirty_ = true;
  bool historyLost_ = true;  // No earlier snapshot to edit from.
  std::vector<SyntaxEdit> edits_;
  std::optional<ChangedSpan> changed_;
};

}  // namespace ptx::lsp

// Document: one open text document — its text, version and latest analysis.
//
// Edits are applied to the text immediately (the text is the source of truth; no edit is
// ever lost); analysis runs on the current text and is replaced wholesale.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "Lint.h"
#include "protocol/Positions.h"
#include "text/LineIndex.h"

namespace ptx::lsp {

struct Range {
  Position start;
  Position end;
};

class Document {
 public:
  Document(std::string uri, std::string text, std::int64_t version);

  const std::string& uri() const { return uri_; }
  const std::string& text() const { return text_; }
  std::int64_t version() const { return version_; }
  const LineIndex& lines() const { return *lines_; }

  // Replaces `range` (or the whole text when absent) with `newText`.
  void applyChange(const std::optional<Range>& range, std::string_view newText, PositionEncoding encoding);
  void setVersion(std::int64_t version) { version_ = version; }

  // Lints the current text (cheap to call again: it only runs when the text changed).
  const LintResult& analysis();

 private:
  std::string uri_;
  std::string text_;
  std::int64_t version_;
  std::optional<LineIndex> lines_;
  std::optional<LintResult> analysis_;
};

}  // namespace ptx::lsp

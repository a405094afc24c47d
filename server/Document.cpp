// Document: in-place edits that also record what an incremental reparse needs.
#include "Document.h"

namespace ptx::lsp {

Document::Document(std::string uri, std::string text, std::int64_t version)
    : uri_(std::move(uri)), text_(std::move(text)), version_(version), lines_(text_) {}

void Document::applyChange(const std::optional<Range>& range, std::string_view newText, PositionEncoding encoding) {
  dirty_ = true;
  if (!range) {
    text_.assign(newText);
    lines_ = LineIndex(text_);
    forgetEdits();
    return;
  }
  std::uint32_t begin = offsetAt(text_, lines_, range->start, encoding);
  std::uint32_t end = offsetAt(text_, lines_, range->end, encoding);
  if (end < begin) std::swap(begin, end);
  if (!historyLost_) edits_.push_back(describeEdit(text_, begin, end, newText));
  auto inserted = static_cast<std::uint32_t>(newText.size());
  text_.replace(begin, end - begin, newText);
  // The index keeps a view of the text: rebind it to the (possibly moved) buffer.
  lines_.update(text_, begin, end, inserted);
  if (!historyLost_) changed_ = changed_ ? changed_->then(begin, end, inserted) : ChangedSpan{begin, end, begin + inserted};
}

Snapshot Document::takeSnapshot() {
  Snapshot snapshot;
  snapshot.text = std::make_shared<const std::string>(text_);
  snapshot.lines.emplace(lines_, *snapshot.text);
  snapshot.version = version_;
  snapshot.fresh = historyLost_;
  if (!historyLost_) {
    snapshot.edits = std::move(edits_);
    snapshot.changed = changed_;
  }
  edits_.clear();
  changed_.reset();
  dirty_ = false;
  historyLost_ = false;
  return snapshot;
}

void Document::forgetEdits() {
  edits_.clear();
  changed_.reset();
  historyLost_ = true;
  dirty_ = true;
}

}  // namespace ptx::lsp

// Document: in-place edits that also record what an incremental reparse needs.
#include "Document.h"

namespace ptx::lsp {

namespace {

// Room left for typing when a document's text is given a new buffer: growing by a small
// fraction, not by std::string's doubling, keeps a large document's buffer near its size.
std::size_t capacityFor(std::size_t size) { return size + size / 64 + 4096; }

// `text` with [begin, end) replaced by `inserted`, in a new buffer of capacityFor its size.
std::shared_ptr<std::string> editedCopy(const std::string& text, std::uint32_t begin, std::uint32_t end,
                                        std::string_view inserted) {
  auto copy = std::make_shared<std::string>();
  const std::size_t size = text.size() - (end - begin) + inserted.size();
  copy->reserve(capacityFor(size));
  copy->append(text, 0, begin);
  copy->append(inserted);
  copy->append(text, end, std::string::npos);
  return copy;
}

}  // namespace

Document::Document(std::string uri, std::string text, std::int64_t version)
    : uri_(std::move(uri)), text_(std::make_shared<std::string>(std::move(text))), version_(version), lines_(*text_) {}

void Document::applyChange(const std::optional<Range>& range, std::string_view newText, PositionEncoding encoding) {
  dirty_ = true;
  if (!range) {
    text_ = std::make_shared<std::string>(newText);
    lines_ = LineIndex(*text_);
    forgetEdits();
    return;
  }
  std::string& text = *text_;
  std::uint32_t begin = offsetAt(text, lines_, range->start, encoding);
  std::uint32_t end = offsetAt(text, lines_, range->end, encoding);
  if (end < begin) std::swap(begin, end);
  if (!historyLost_) {
    LineColumn at = lines_.byteColumn(begin);
    edits_.push_back(describeEdit(text, begin, end, newText, TSPoint{at.line, at.column}));
  }
  auto inserted = static_cast<std::uint32_t>(newText.size());
  const std::size_t newSize = text.size() - (end - begin) + newText.size();
  if (text_.use_count() == 1 && newSize <= text.capacity()) {
    text.replace(begin, end - begin, newText);
  } else {
    // A snapshot or an analysis still reads the old text, or it has no room left.
    text_ = editedCopy(text, begin, end, newText);
  }
  // The index keeps a view of the text: rebind it to the (possibly moved) buffer.
  lines_.update(*text_, begin, end, inserted);
  if (!historyLost_) changed_ = changed_ ? changed_->then(begin, end, inserted) : ChangedSpan{begin, end, begin + inserted};
}

Snapshot Document::takeSnapshot() {
  Snapshot snapshot;
  snapshot.text = text_;
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

// Document: text edits and lazily refreshed analysis.
#include "Document.h"

namespace ptx::lsp {

Document::Document(std::string uri, std::string text, std::int64_t version)
    : uri_(std::move(uri)), text_(std::move(text)), version_(version) {
  lines_.emplace(text_);
}

void Document::applyChange(const std::optional<Range>& range, std::string_view newText, PositionEncoding encoding) {
  if (!range) {
    text_.assign(newText);
  } else {
    std::uint32_t begin = offsetAt(text_, *lines_, range->start, encoding);
    std::uint32_t end = offsetAt(text_, *lines_, range->end, encoding);
    if (end < begin) std::swap(begin, end);
    text_.replace(begin, end - begin, newText);
  }
  // LineIndex keeps a view of the text: rebuild it over the new buffer.
  lines_.emplace(text_);
  analysis_.reset();
}

const LintResult& Document::analysis() {
  if (!analysis_) analysis_ = lintText(text_);
  return *analysis_;
}

}  // namespace ptx::lsp

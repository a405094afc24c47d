// LineIndex implementation: line starts are collected once; lookups binary-search them.
#include "text/LineIndex.h"

#include <algorithm>

namespace ptx {

LineIndex::LineIndex(std::string_view text) : text_(text) {
  // Sized exactly: a server holds the index of every open document and of its snapshots.
  lineStarts_.reserve(1 + static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')));
  lineStarts_.push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') lineStarts_.push_back(static_cast<std::uint32_t>(i + 1));
  }
}

void LineIndex::update(std::string_view newText, std::uint32_t begin, std::uint32_t oldEnd, std::uint32_t insertedBytes) {
  // Line starts in (begin, oldEnd] came from removed newlines; later ones move by the delta.
  auto first = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), begin);
  auto last = std::upper_bound(first, lineStarts_.end(), oldEnd);
  std::vector<std::uint32_t> inserted;
  for (std::uint32_t i = begin; i < begin + insertedBytes; ++i) {
    if (newText[i] == '\n') inserted.push_back(i + 1);
  }
  std::int64_t delta = static_cast<std::int64_t>(insertedBytes) - static_cast<std::int64_t>(oldEnd - begin);
  for (auto it = last; it != lineStarts_.end(); ++it) *it = static_cast<std::uint32_t>(*it + delta);
  auto at = lineStarts_.erase(first, last);
  lineStarts_.insert(at, inserted.begin(), inserted.end());
  text_ = newText;
}

std::uint32_t LineIndex::lineOf(std::uint32_t offset) const {
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  return static_cast<std::uint32_t>(it - lineStarts_.begin()) - 1;
}

std::uint32_t LineIndex::lineStart(std::uint32_t line) const {
  if (line >= lineStarts_.size()) return static_cast<std::uint32_t>(text_.size());
  return lineStarts_[line];
}

std::string_view LineIndex::lineText(std::uint32_t line) const {
  if (line >= lineStarts_.size()) return {};
  std::size_t begin = lineStarts_[line];
  std::size_t end = line + 1 < lineStarts_.size() ? lineStarts_[line + 1] - 1 : text_.size();
  if (end > begin && end <= text_.size() && end >= 1 && text_[end - 1] == '\r' &&
      line + 1 < lineStarts_.size()) {
    --end;
  }
  return text_.substr(begin, end - begin);
}

LineColumn LineIndex::byteColumn(std::uint32_t offset) const {
  offset = std::min<std::uint32_t>(offset, static_cast<std::uint32_t>(text_.size()));
  std::uint32_t line = lineOf(offset);
  return {line, offset - lineStarts_[line]};
}

LineColumn LineIndex::characterColumn(std::uint32_t offset) const {
  offset = std::min<std::uint32_t>(offset, static_cast<std::uint32_t>(text_.size()));
  std::uint32_t line = lineOf(offset);
  std::uint32_t start = lineStarts_[line];
  return {line, countCharacters(text_.substr(start, offset - start))};
}

std::uint32_t countCharacters(std::string_view bytes) {
  std::uint32_t count = 0;
  std::size_t i = 0;
  while (i < bytes.size()) {
    auto lead = static_cast<unsigned char>(bytes[i]);
    std::size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3
                                           : (lead >> 3) == 0x1E ? 4 : 0;
    bool valid = length != 0 && i + length <= bytes.size();
    for (std::size_t k = 1; valid && k < length; ++k) {
      valid = (static_cast<unsigned char>(bytes[i + k]) & 0xC0) == 0x80;
    }
    i += valid ? length : 1;
    ++count;
  }
  return count;
}

}  // namespace ptx

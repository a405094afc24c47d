// LineIndex implementation: line starts are collected once; lookups binary-search them.
#include "text/LineIndex.h"

#include <algorithm>
#include <iterator>

namespace ptx {

LineIndex::LineIndex(std::string_view text) : text_(text) {
  // Sized exactly: a server holds the index of every open document.
  auto starts = std::make_shared<std::vector<std::uint32_t>>();
  starts->reserve(1 + static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')));
  starts->push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts->push_back(static_cast<std::uint32_t>(i + 1));
  }
  lineStarts_ = std::move(starts);
}

void LineIndex::update(std::string_view newText, std::uint32_t begin, std::uint32_t oldEnd, std::uint32_t insertedBytes) {
  const std::vector<std::uint32_t>& old = *lineStarts_;
  // Line starts in (begin, oldEnd] came from removed newlines; later ones move by the delta.
  auto first = std::upper_bound(old.begin(), old.end(), begin);
  auto last = std::upper_bound(first, old.end(), oldEnd);
  std::vector<std::uint32_t> inserted;
  for (std::uint32_t i = begin; i < begin + insertedBytes; ++i) {
    if (newText[i] == '\n') inserted.push_back(i + 1);
  }
  std::int64_t delta = static_cast<std::int64_t>(insertedBytes) - static_cast<std::int64_t>(oldEnd - begin);
  auto moved = [delta](std::uint32_t start) { return static_cast<std::uint32_t>(start + delta); };
  if (lineStarts_.use_count() == 1) {
    // Nobody else reads these starts: edit them in place.
    std::vector<std::uint32_t>& own = *lineStarts_;
    auto ownFirst = own.begin() + (first - old.begin());
    auto ownLast = own.begin() + (last - old.begin());
    std::transform(ownLast, own.end(), ownLast, moved);
    auto at = own.erase(ownFirst, ownLast);
    own.insert(at, inserted.begin(), inserted.end());
  } else {
    // Shared with a snapshot or an analysis of the old text: the new starts go to a copy,
    // built in the same single pass.
    auto copy = std::make_shared<std::vector<std::uint32_t>>();
    copy->reserve(old.size() - static_cast<std::size_t>(last - first) + inserted.size());
    copy->insert(copy->end(), old.begin(), first);
    copy->insert(copy->end(), inserted.begin(), inserted.end());
    std::transform(last, old.end(), std::back_inserter(*copy), moved);
    lineStarts_ = std::move(copy);
  }
  text_ = newText;
}

std::uint32_t LineIndex::lineOf(std::uint32_t offset) const {
  const std::vector<std::uint32_t>& starts = *lineStarts_;
  auto it = std::upper_bound(starts.begin(), starts.end(), offset);
  return static_cast<std::uint32_t>(it - starts.begin()) - 1;
}

std::uint32_t LineIndex::lineStart(std::uint32_t line) const {
  if (line >= starts().size()) return static_cast<std::uint32_t>(text_.size());
  return starts()[line];
}

std::string_view LineIndex::lineText(std::uint32_t line) const {
  if (line >= starts().size()) return {};
  std::size_t begin = starts()[line];
  std::size_t end = line + 1 < starts().size() ? starts()[line + 1] - 1 : text_.size();
  if (end > begin && end <= text_.size() && end >= 1 && text_[end - 1] == '\r' &&
      line + 1 < starts().size()) {
    --end;
  }
  return text_.substr(begin, end - begin);
}

LineColumn LineIndex::byteColumn(std::uint32_t offset) const {
  offset = std::min<std::uint32_t>(offset, static_cast<std::uint32_t>(text_.size()));
  std::uint32_t line = lineOf(offset);
  return {line, offset - starts()[line]};
}

LineColumn LineIndex::characterColumn(std::uint32_t offset) const {
  offset = std::min<std::uint32_t>(offset, static_cast<std::uint32_t>(text_.size()));
  std::uint32_t line = lineOf(offset);
  std::uint32_t start = starts()[line];
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

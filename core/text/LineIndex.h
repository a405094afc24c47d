// LineIndex: maps byte offsets in a text to lines and columns and back.
//
// The core works in byte offsets only. Each edge picks its column convention: ptxlint prints
// 1-based character columns, the language server UTF-16 or UTF-8 code units. The index stores
// the offset of every line start, so a lookup is a binary search.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace ptx {

struct LineColumn {
  std::uint32_t line = 0;    // 0-based line number.
  std::uint32_t column = 0;  // 0-based column; its unit depends on the call.
};

class LineIndex {
 public:
  explicit LineIndex(std::string_view text);
  // A copy of `other` over `sameText`, a copy of the text `other` indexes (no rescan). The
  // copies share their line starts until one of them is updated: a server hands the index of
  // a large document to every snapshot and analysis of it.
  LineIndex(const LineIndex& other, std::string_view sameText) : text_(sameText), lineStarts_(other.lineStarts_) {}

  // Follows an edit: `newText` is the old text with [begin, oldEnd) replaced by
  // `insertedBytes` bytes at `begin`. Costs one pass over the line starts, not the text, so
  // typing into a large document stays cheap; line starts shared with a copy are copied in
  // that pass.
  void update(std::string_view newText, std::uint32_t begin, std::uint32_t oldEnd, std::uint32_t insertedBytes);

  std::uint32_t lineCount() const { return static_cast<std::uint32_t>(starts().size()); }

  // The 0-based line holding `offset`; offsets past the end map to the last line.
  std::uint32_t lineOf(std::uint32_t offset) const;

  std::uint32_t lineStart(std::uint32_t line) const;

  // The line's bytes without its terminator ("\n" or "\r\n").
  std::string_view lineText(std::uint32_t line) const;

  // Line and column in bytes.
  LineColumn byteColumn(std::uint32_t offset) const;

  // Line and column in Unicode code points. Each byte of an invalid UTF-8 sequence counts
  // as one character, so garbage input still gets stable columns.
  LineColumn characterColumn(std::uint32_t offset) const;

 private:
  const std::vector<std::uint32_t>& starts() const { return *lineStarts_; }

  std::string_view text_;
  std::shared_ptr<std::vector<std::uint32_t>> lineStarts_;
};

// The number of code points in `bytes`, counting each invalid byte as one.
std::uint32_t countCharacters(std::string_view bytes);

}  // namespace ptx

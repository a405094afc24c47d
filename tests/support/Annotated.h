// Annotated: PTX test sources with marked points and ranges, the way feature tests read.
//
//   "add.s32 %r1, %r^2, 1;"        — `^` marks a point (the cursor);
//   "[[%r1]] = ..."                 — `[[` and `]]` mark a range;
//   "$a^" / "[[$name:...]]"         — optional names: `$name^` for a point, `[[$name:` for a range.
//
// The markers are removed from the text; points and ranges are byte offsets into the clean
// text, in the order they appear. Feature tests state cursor and expectation in one string.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "diag/Diagnostic.h"  // ByteRange

namespace ptx::test {

class Annotated {
 public:
  explicit Annotated(std::string_view annotated);

  const std::string& text() const { return text_; }
  // The only point; fails the test (throws) unless there is exactly one.
  std::uint32_t point() const;
  std::uint32_t point(std::string_view name) const;
  const std::vector<std::uint32_t>& points() const { return points_; }
  // The only range; throws unless there is exactly one.
  ByteRange range() const;
  ByteRange range(std::string_view name) const;
  const std::vector<ByteRange>& ranges() const { return ranges_; }

 private:
  std::string text_;
  std::vector<std::uint32_t> points_;
  std::vector<ByteRange> ranges_;
  std::map<std::string, std::uint32_t, std::less<>> namedPoints_;
  std::map<std::string, ByteRange, std::less<>> namedRanges_;
};

}  // namespace ptx::test

// LineIndex: offsets to lines and columns in bytes and characters.
#include <catch2/catch.hpp>

#include "text/LineIndex.h"

using namespace ptx;

TEST_CASE("LineIndex maps offsets to lines and byte columns", "[text]") {
  LineIndex index("ab\ncd\r\n\nxyz");
  REQUIRE(index.lineCount() == 4);
  CHECK(index.byteColumn(0).line == 0);
  CHECK(index.byteColumn(4).line == 1);
  CHECK(index.byteColumn(4).column == 1);
  CHECK(index.lineText(1) == "cd");  // "\r\n" is not part of the line.
  CHECK(index.lineText(2).empty());
  CHECK(index.lineText(3) == "xyz");
  CHECK(index.byteColumn(11).line == 3);
  CHECK(index.byteColumn(11).column == 3);
  CHECK(index.byteColumn(1000).line == 3);  // Past the end clamps.
}

TEST_CASE("Character columns count code points and each invalid byte once", "[text]") {
  LineIndex index("// \xC3\xA9t\xC3\xA9\n\xFF\xFEx");
  CHECK(index.characterColumn(8).column == 6);  // "// ", 'é', 't', 'é' → 6 characters.
  CHECK(index.characterColumn(11).column == 2);  // Two invalid bytes, then 'x'.
  CHECK(countCharacters("\xE2\x82") == 2);       // Truncated sequence: two bytes, two chars.
}

TEST_CASE("LineIndex::update follows edits like a rebuild does", "[line-index]") {
  std::string text = "a\nbb\n\nccc\r\nd";
  ptx::LineIndex index(text);
  std::uint32_t seed = 12345;
  auto next = [&](std::uint32_t bound) {
    seed = seed * 1103515245 + 12345;
    return bound == 0 ? 0 : (seed >> 8) % bound;
  };
  const char* pieces[] = {"", "x", "\n", "\r\n", "ab\ncd\n", "\n\n"};
  for (int n = 0; n < 500; ++n) {
    auto begin = next(static_cast<std::uint32_t>(text.size() + 1));
    auto end = begin + next(static_cast<std::uint32_t>(std::min<std::size_t>(4, text.size() - begin) + 1));
    std::string inserted = pieces[next(6)];
    text.replace(begin, end - begin, inserted);
    index.update(text, begin, end, static_cast<std::uint32_t>(inserted.size()));
    ptx::LineIndex rebuilt(text);
    REQUIRE(index.lineCount() == rebuilt.lineCount());
    for (std::uint32_t line = 0; line < rebuilt.lineCount(); ++line) {
      REQUIRE(index.lineStart(line) == rebuilt.lineStart(line));
      REQUIRE(index.lineText(line) == rebuilt.lineText(line));
    }
  }
}

TEST_CASE("A copy of a LineIndex keeps indexing its own text when the original follows an edit", "[line-index]") {
  std::string oldText = "a\nbb\nccc\n";
  ptx::LineIndex index(oldText);
  // The copy shares the line starts (the server's snapshots and analyses hold such copies).
  ptx::LineIndex copy(index, oldText);
  std::string newText = "a\nb\n\nb\nccc\n";  // "\n\n" inserted at byte 3 of "bb".
  index.update(newText, 3, 3, 2);
  ptx::LineIndex rebuiltNew(newText);
  ptx::LineIndex rebuiltOld(oldText);
  REQUIRE(index.lineCount() == rebuiltNew.lineCount());
  REQUIRE(copy.lineCount() == rebuiltOld.lineCount());
  for (std::uint32_t line = 0; line < rebuiltNew.lineCount(); ++line) CHECK(index.lineStart(line) == rebuiltNew.lineStart(line));
  for (std::uint32_t line = 0; line < rebuiltOld.lineCount(); ++line) {
    CHECK(copy.lineStart(line) == rebuiltOld.lineStart(line));
    CHECK(copy.lineText(line) == rebuiltOld.lineText(line));
  }
  // Updated again with no copy left, the original edits its starts in place, still correctly.
  std::string third = "a\nb\n\nb\ncc\n";
  ptx::LineIndex alone(std::move(index));
  alone.update(third, 8, 9, 0);
  ptx::LineIndex rebuiltThird(third);
  REQUIRE(alone.lineCount() == rebuiltThird.lineCount());
  for (std::uint32_t line = 0; line < rebuiltThird.lineCount(); ++line) CHECK(alone.lineStart(line) == rebuiltThird.lineStart(line));
}

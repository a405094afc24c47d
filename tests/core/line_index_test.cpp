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

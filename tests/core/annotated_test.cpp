// The annotated-PTX helper the feature tests are written in.
#include <catch2/catch.hpp>

#include "Annotated.h"

using ptx::test::Annotated;

TEST_CASE("Annotated strips points and ranges and records their offsets", "[support]") {
  Annotated source("add.s32 [[%r1]], %r^2, [[$imm:7]];$end^");
  CHECK(source.text() == "add.s32 %r1, %r2, 7;");
  REQUIRE(source.points().size() == 2);
  CHECK(source.points()[0] == 15);
  CHECK(source.point("end") == 20);
  REQUIRE(source.ranges().size() == 2);
  CHECK(source.ranges()[0].begin == 8);
  CHECK(source.ranges()[0].end == 11);
  CHECK(source.range("imm").begin == 18);
  CHECK(source.range("imm").end == 19);
  CHECK_THROWS(source.point());
  CHECK_THROWS(Annotated("[[x"));
}

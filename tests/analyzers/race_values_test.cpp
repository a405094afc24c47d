// Race findings that depend on the values stored and on the strength of each access
// (races/RaceSearch.cpp): replicated data stored alike by several threads is no race, a warp
// storing different values to one slot is, and one strong access beside a plain one is still
// a data race (PTX ISA §8.7.1: morally strong needs both). ptxas 13.0 accepts each text
// (checked by hand with `ptxas -arch=sm_90a`).
#include <catch2/catch.hpp>
#include <string>

#include "Lint.h"
#include "TestSupport.h"
#include "text/LineIndex.h"

using namespace ptx;

namespace {

// The 1-based lines RAC001 reports on, and the messages.
std::vector<std::uint32_t> raceLines(const std::string& text, std::vector<std::string>* messages = nullptr) {
  LintResult result = lintText(text);
  LineIndex lines(text);
  std::vector<std::uint32_t> found;
  for (const Diagnostic& d : result.diagnostics) {
    REQUIRE(d.severity != Severity::Error);  // Valid PTX: no error of any rule.
    if (d.rule != "RAC001") continue;
    found.push_back(lines.lineOf(d.range.begin) + 1);
    if (messages) messages->push_back(d.message);
  }
  return found;
}

const char* kHeader = R"(.version 8.4
.target sm_90a
.address_size 64
.shared .align 16 .b8 tile[1024];
.shared .align 16 .b8 staged[1024];
)";

}  // namespace

TEST_CASE("Threads storing the same loaded data to one slot do not race", "[analyzers][races]") {
  // A layout conversion: lanes of warp 0 and warp 1 load the same 16 bytes of `tile` and
  // store them to the same place in `staged` (thread 0 and thread 32 hold one element).
  std::string text = std::string(kHeader) + R"(.visible .entry k(.param .u64 out) .reqntid 64
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  shl.b32 %r3, %r2, 4;
  mov.u32 %r4, tile;
  add.s32 %r5, %r4, %r3;
  ld.shared.v4.b32 {%r6, %r7, %r8, %r9}, [%r5];
  mov.u32 %r10, staged;
  add.s32 %r11, %r10, %r3;
  st.shared.v4.b32 [%r11], {%r6, %r7, %r8, %r9};
  bar.sync 0;
  ld.shared.b32 %r12, [%r11];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.b32 [%rd2], %r12;
  ret;
}
)";
  CHECK(raceLines(text).empty());
}

TEST_CASE("Lanes storing different partial sums to one slot race", "[analyzers][races]") {
  // Every lane adds its own element to a value loaded from the tile and stores the sum to
  // staged[0]: the values differ from lane to lane, and the last store wins.
  std::string text = std::string(kHeader) + R"(.visible .entry k(.param .u64 in) .reqntid 64
{
  .reg .b32 %r<16>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [in];
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  ld.global.f32 %f1, [%rd2];
  ld.shared.f32 %f2, [tile];
  add.f32 %f3, %f1, %f2;
  st.shared.f32 [staged], %f3;
  ret;
}
)";
  std::vector<std::string> messages;
  CHECK(raceLines(text, &messages) == std::vector<std::uint32_t>{19});
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].find("assuming") == std::string::npos);  // .reqntid declares the block.
}

TEST_CASE("A race message names the block shape it assumed", "[analyzers][races]") {
  // The same store of different values by every thread, in a kernel that declares no block
  // shape: the finding says which shape the pair was found in.
  std::string text = std::string(kHeader) + R"(.visible .entry k()
{
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  st.shared.u32 [staged], %r1;
  ret;
}
)";
  std::vector<std::string> messages;
  CHECK(raceLines(text, &messages) == std::vector<std::uint32_t>{10});
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].find("assuming a block of at least") != std::string::npos);
}

TEST_CASE("A volatile access beside a plain one is a data race, two volatile ones are not", "[analyzers][races]") {
  // Thread t stores its slot plainly and reads its neighbour's slot: with a volatile load
  // only, the pair is still a data race; with both volatile it is morally strong.
  auto kernel = [](const char* storeQualifier) {
    return std::string(kHeader) + R"(.visible .entry k() .reqntid 64
{
  .reg .b32 %r<8>;
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, staged;
  add.s32 %r4, %r3, %r2;
  st)" + storeQualifier + R"(.shared.u32 [%r4], %r1;
  ld.volatile.shared.u32 %r5, [%r4+4];
  st.shared.u32 [tile], %r5;
  ret;
}
)";
  };
  std::vector<std::uint32_t> plain = raceLines(kernel(""));
  CHECK(std::find(plain.begin(), plain.end(), 13u) != plain.end());
  CHECK(std::find(plain.begin(), plain.end(), 14u) != plain.end());
  std::vector<std::uint32_t> bothVolatile = raceLines(kernel(".volatile"));
  CHECK(std::find(bothVolatile.begin(), bothVolatile.end(), 13u) == bothVolatile.end());
}

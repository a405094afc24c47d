// The register estimate (analyzers/registers/RegisterPressure.h): lowering to 32-bit units,
// liveness over the CFG, allocation with pair alignment and R1 reserved, budgets. Expected
// figures are worked out by hand in the comments; where ptxas was run on the same PTX, its
// `-v` figure is quoted.
#include <catch2/catch.hpp>

#include "Lint.h"
#include "TestSupport.h"
#include "flow/FunctionFlow.h"
#include "registers/InstructionClasses.h"
#include "registers/RegisterPressure.h"

using namespace ptx;

namespace {

std::vector<registers::RegisterEstimate> estimate(const std::string& text) {
  LintResult result = lintText(text);
  REQUIRE(result.tree.isComplete());
  // Every text here is valid PTX: an error would mean the estimate reads a broken model.
  for (const Diagnostic& diagnostic : result.diagnostics) {
    INFO(diagnostic.rule << ": " << diagnostic.message);
    CHECK(diagnostic.severity != Severity::Error);
  }
  flow::FlowCache flows(text, result.module);
  return registers::estimateRegisters(text, result.module, flows);
}

// The estimate of a module with one function.
registers::RegisterEstimate estimateOne(const std::string& text) {
  auto estimates = estimate(text);
  REQUIRE(estimates.size() == 1);
  return estimates[0];
}

// Whether a register of index `index` (%r3, %f3...) is listed live at the peak.
bool liveAtPeak(const registers::RegisterEstimate& e, unsigned index) {
  return std::any_of(e.liveAtPeak.begin(), e.liveAtPeak.end(), [&](const auto& key) { return key.index == index; });
}

std::string module(std::string_view body, std::string_view target = "sm_80") {
  return ".version 8.0\n.target " + std::string(target) + "\n.address_size 64\n\n" + std::string(body);
}

}  // namespace

TEST_CASE("Straight-line code: max live counts 32-bit units, a 64-bit value takes an aligned pair", "[registers]") {
  // in/out are kernel parameters read from the constant bank; on sm_80 a global address must
  // be in a register pair, so %rd1 is materialized once and kept while it is read. Before the
  // second load %rd1 (2 units) and %r1 (1) are live; R1 is reserved for the stack pointer, so
  // R0 = %r1 and R2:R3 = %rd1. A compact allocation touches R0..R3; but %r2 is read with %r1
  // (R0, bank 0), so it goes to an odd register, and R3 was just read by the loads: R5. ptxas
  // reports two more than the highest register its code touches: 8. ptxas -v (sm_80): 10.
  std::string text = module(R"(.visible .entry k(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.global.u32 %r1, [%rd1];
  ld.global.u32 %r2, [%rd1+4];
  add.s32 %r3, %r1, %r2;
  st.global.u32 [%rd2], %r3;
  ret;
}
)");
  const auto e = estimateOne(text);
  // Before the second load: %rd1 (2 units) and %r1 (1) (the loads may issue in either order).
  CHECK(e.maxLiveUnits == 3);
  // R0..R5 touched, plus the two ptxas reserves → 8 (ptxas: 10).
  CHECK(e.registers == 8);
  CHECK(e.spilledUnits == 0);
  CHECK(e.budget == 255);
  REQUIRE(e.liveUnits.size() == 7);
}

TEST_CASE("A loop keeps values live around its back edge", "[registers]") {
  // %f1..%f4 are loaded before the loop and read in every iteration: they stay live across
  // the whole loop, so the pressure inside it includes them even after their last use in
  // program order.
  std::string text = module(R"(.visible .entry k(.param .u64 in, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [in];
  ld.param.u32 %r1, [n];
  ld.global.f32 %f1, [%rd1];
  ld.global.f32 %f2, [%rd1+4];
  ld.global.f32 %f3, [%rd1+8];
  ld.global.f32 %f4, [%rd1+12];
  mov.f32 %f5, 0f00000000;
  mov.u32 %r2, 0;
$L_loop:
  fma.rn.f32 %f5, %f1, %f2, %f5;
  fma.rn.f32 %f5, %f3, %f4, %f5;
  add.s32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra $L_loop;
  st.global.f32 [%rd1], %f5;
  ret;
}
)");
  const auto e = estimateOne(text);
  // In the loop: %f1..%f4, %f5 and %r2: 6 units, plus %rd1 (a kernel parameter, but also the
  // store's address after the loop: on sm_80 it is materialized into a pair once and kept)
  // = 8. %r1, the bound, is read by setp straight from the constant bank and holds nothing.
  // ptxas -v (sm_80): 12 registers; the estimate is 8 + R1 + 2 = 11.
  CHECK(e.maxLiveUnits == 8);
  CHECK(e.registers == 11);
  // Every instruction of the loop body is marked as in a loop, none before it.
  std::size_t loopStart = 8;  // fma is the 9th instruction.
  for (std::size_t i = 0; i < e.inLoop.size(); ++i) {
    CHECK(e.inLoop[i] == (i >= loopStart && i < loopStart + 5));
  }
  // At the loop's first fma all of %f1..%f4 are still live (they are read again in the next
  // iteration), as are %f5 and %r2.
  CHECK(e.liveUnits[loopStart] >= 6);
}

TEST_CASE("A guarded write does not end the old value's life", "[registers]") {
  // `@%p1 mov.u32 %r1, 7` may not execute, so %r1's loaded value must stay live from its load
  // to the store. Were the guarded mov a kill, %r1 would be dead at the second load.
  std::string text = module(R"(.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.global.u32 %r1, [%rd1];
  ld.global.u32 %r2, [%rd1+4];
  setp.eq.u32 %p1, %r2, 0;
  @%p1 mov.u32 %r1, 7;
  st.global.u32 [%rd1], %r1;
  ret;
}
)");
  auto estimates = estimate(text);
  REQUIRE(estimates.size() == 1);
  // %rd1 (the store's address, materialized once on sm_80 and kept) stays live to the end.
  // At the setp (index 3): %rd1, %r1 and %r2 = 4 units. Were the guarded mov a kill, %r1
  // would be dead there and the count 3.
  CHECK(estimates[0].liveUnits[3] == 4);
  // At the guarded mov: %rd1 and %r1 (its old value may survive), then the same after it.
  CHECK(estimates[0].liveUnits[4] == 3);
}

TEST_CASE("Budgets: .maxnreg, the launch-bounds ceiling, and spills beyond them", "[registers]") {
  // The ceiling table of docs/cuda-facts §4.3, measured with ptxas on sm_80, sm_90 and sm_120.
  CHECK(registers::launchBoundsRegisterCeiling(1024, 1) == 64);
  CHECK(registers::launchBoundsRegisterCeiling(384, 2) == 80);
  CHECK(registers::launchBoundsRegisterCeiling(160, 3) == 128);
  CHECK(registers::launchBoundsRegisterCeiling(64, 8) == 128);
  CHECK(registers::launchBoundsRegisterCeiling(32, 1) == 255);

  // 40 floats loaded by volatile loads and summed in reverse: all 40 live at once.
  std::string body =
      ".visible .entry k(.param .u64 src) .maxnreg 24\n{\n  .reg .f32 %f<42>;\n  .reg .b64 %rd<2>;\n"
      "  ld.param.u64 %rd1, [src];\n";
  for (int i = 0; i < 40; ++i)
    body += "  ld.volatile.global.f32 %f" + std::to_string(i) + ", [%rd1+" + std::to_string(4 * i) + "];\n";
  body += "  mov.f32 %f40, %f39;\n";
  for (int i = 38; i >= 0; --i) body += "  add.rn.f32 %f40, %f40, %f" + std::to_string(i) + ";\n";
  body += "  st.global.f32 [%rd1], %f40;\n  ret;\n}\n";
  auto estimates = estimate(module(body));
  REQUIRE(estimates.size() == 1);
  const auto& e = estimates[0];
  CHECK(e.budget == 24);
  CHECK(e.budgetReason == ".maxnreg 24");
  CHECK(e.registers <= 24);
  // 40 floats + the address pair need about 43 registers with R1 reserved: ~19 do not fit.
  CHECK(e.spilledUnits >= 15);
  CHECK(e.maxLiveUnits >= 41);
  // The registers live at the peak are named, widest first (the pair %rd1).
  REQUIRE(!e.liveAtPeak.empty());
}

TEST_CASE("Loads issue early: independent loads are live together, as ptxas schedules them", "[registers]") {
  // The PTX reads one value at a time, each consumed before the next load. ptxas issues the
  // five loads first (each has hundreds of cycles of latency to hide), so they are all live
  // before the chain consumes them. ptxas -v (sm_80): 14 registers.
  std::string text = module(R"(.visible .entry k(.param .u64 in, .param .u64 out)
{
  .reg .f32 %f<12>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.global.nc.f32 %f1, [%rd1];
  mul.f32 %f2, %f1, %f1;
  ld.global.nc.f32 %f3, [%rd1+128];
  fma.rn.f32 %f4, %f3, %f3, %f2;
  ld.global.nc.f32 %f5, [%rd1+256];
  fma.rn.f32 %f6, %f5, %f5, %f4;
  ld.global.nc.f32 %f7, [%rd1+384];
  fma.rn.f32 %f8, %f7, %f7, %f6;
  ld.global.nc.f32 %f9, [%rd1+512];
  fma.rn.f32 %f10, %f9, %f9, %f8;
  st.global.f32 [%rd2], %f10;
  ret;
}
)");
  const auto e = estimateOne(text);
  // In PTX order at most the address pair and two floats are live (4 units); scheduled, the
  // address pair and at least four loaded floats are.
  CHECK(e.maxLiveUnits >= 6);
  bool allFourEarlyLoadsLive = true;
  for (const char* name : {"%f1", "%f3", "%f5", "%f7"}) {
    bool found = false;
    for (const auto& key : e.liveAtPeak) {
      found = found || "%f" + std::to_string(key.index) == name;
    }
    allFourEarlyLoadsLive = allFourEarlyLoadsLive && found;
  }
  CHECK(allFourEarlyLoadsLive);
}

TEST_CASE("Over the pressure target, a load is issued for the instruction that reads it next", "[registers]") {
  // Forty accumulators are live into the block, above the pressure target, and the PTX loads
  // every A operand before any B operand, each pair read by one FMA. ptxas then issues each
  // shared load just ahead of the FMA it completes (LDS a, LDS b, FFMA, ...): no load is hoisted
  // ahead of a consumer that cannot issue yet. Issuing the loads in source order would keep all
  // eight A operands live at once.
  std::string text = module(R"(.visible .entry k(.param .u64 in, .param .u64 out, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .f32 %f<130>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 tile[1024];
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r2, [n];
  ld.global.nc.v4.f32 {%f0, %f1, %f2, %f3}, [%rd1+0];
  ld.global.nc.v4.f32 {%f4, %f5, %f6, %f7}, [%rd1+16];
  ld.global.nc.v4.f32 {%f8, %f9, %f10, %f11}, [%rd1+32];
  ld.global.nc.v4.f32 {%f12, %f13, %f14, %f15}, [%rd1+48];
  ld.global.nc.v4.f32 {%f16, %f17, %f18, %f19}, [%rd1+64];
  ld.global.nc.v4.f32 {%f20, %f21, %f22, %f23}, [%rd1+80];
  ld.global.nc.v4.f32 {%f24, %f25, %f26, %f27}, [%rd1+96];
  ld.global.nc.v4.f32 {%f28, %f29, %f30, %f31}, [%rd1+112];
  ld.global.nc.v4.f32 {%f32, %f33, %f34, %f35}, [%rd1+128];
  ld.global.nc.v4.f32 {%f36, %f37, %f38, %f39}, [%rd1+144];
  mov.u32 %r3, %tid.x;
  shl.b32 %r3, %r3, 2;
  mov.u32 %r1, tile;
  add.s32 %r1, %r1, %r3;
  setp.eq.s32 %p1, %r2, 0;
  @%p1 bra $L_done;
  ld.shared.f32 %f100, [%r1+0];
  ld.shared.f32 %f101, [%r1+4];
  ld.shared.f32 %f102, [%r1+8];
  ld.shared.f32 %f103, [%r1+12];
  ld.shared.f32 %f104, [%r1+16];
  ld.shared.f32 %f105, [%r1+20];
  ld.shared.f32 %f106, [%r1+24];
  ld.shared.f32 %f107, [%r1+28];
  ld.shared.f32 %f110, [%r1+512];
  ld.shared.f32 %f111, [%r1+516];
  ld.shared.f32 %f112, [%r1+520];
  ld.shared.f32 %f113, [%r1+524];
  ld.shared.f32 %f114, [%r1+528];
  ld.shared.f32 %f115, [%r1+532];
  ld.shared.f32 %f116, [%r1+536];
  ld.shared.f32 %f117, [%r1+540];
  fma.rn.f32 %f120, %f100, %f110, %f0;
  fma.rn.f32 %f121, %f101, %f111, %f1;
  fma.rn.f32 %f122, %f102, %f112, %f2;
  fma.rn.f32 %f123, %f103, %f113, %f3;
  fma.rn.f32 %f124, %f104, %f114, %f4;
  fma.rn.f32 %f125, %f105, %f115, %f5;
  fma.rn.f32 %f126, %f106, %f116, %f6;
  fma.rn.f32 %f127, %f107, %f117, %f7;
  st.global.f32 [%rd2+0], %f120;
  st.global.f32 [%rd2+4], %f121;
  st.global.f32 [%rd2+8], %f122;
  st.global.f32 [%rd2+12], %f123;
  st.global.f32 [%rd2+16], %f124;
  st.global.f32 [%rd2+20], %f125;
  st.global.f32 [%rd2+24], %f126;
  st.global.f32 [%rd2+28], %f127;
$L_done:
  st.global.f32 [%rd2+32], %f8;
  st.global.f32 [%rd2+36], %f9;
  st.global.f32 [%rd2+40], %f10;
  st.global.f32 [%rd2+44], %f11;
  st.global.f32 [%rd2+48], %f12;
  st.global.f32 [%rd2+52], %f13;
  st.global.f32 [%rd2+56], %f14;
  st.global.f32 [%rd2+60], %f15;
  st.global.f32 [%rd2+64], %f16;
  st.global.f32 [%rd2+68], %f17;
  st.global.f32 [%rd2+72], %f18;
  st.global.f32 [%rd2+76], %f19;
  st.global.f32 [%rd2+80], %f20;
  st.global.f32 [%rd2+84], %f21;
  st.global.f32 [%rd2+88], %f22;
  st.global.f32 [%rd2+92], %f23;
  st.global.f32 [%rd2+96], %f24;
  st.global.f32 [%rd2+100], %f25;
  st.global.f32 [%rd2+104], %f26;
  st.global.f32 [%rd2+108], %f27;
  st.global.f32 [%rd2+112], %f28;
  st.global.f32 [%rd2+116], %f29;
  st.global.f32 [%rd2+120], %f30;
  st.global.f32 [%rd2+124], %f31;
  st.global.f32 [%rd2+128], %f32;
  st.global.f32 [%rd2+132], %f33;
  st.global.f32 [%rd2+136], %f34;
  st.global.f32 [%rd2+140], %f35;
  st.global.f32 [%rd2+144], %f36;
  st.global.f32 [%rd2+148], %f37;
  st.global.f32 [%rd2+152], %f38;
  st.global.f32 [%rd2+156], %f39;
  ret;
}
)");
  const auto e = estimateOne(text);
  // Forty accumulators, the two addresses and the shared offset live throughout; one A and one B
  // operand at a time beside them, not eight.
  CHECK(e.maxLiveUnits <= 40 + 2 + 2 + 1 + 4);
}

TEST_CASE("ptxas unrolls a small counted loop without nounroll and keeps each copy's loads live", "[registers]") {
  // The same loop twice: once plain, once with .pragma "nounroll". ptxas -v (sm_80): 15 and
  // 10 registers. The model: unrolled four times, the two load results of the three other
  // copies are live too: 3 x 2 = 6 registers more, under the 32 that keep full occupancy.
  std::string loop = R"(.visible .entry NAME(.param .u64 p, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [n];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r2, %tid.x;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd2, %rd3;
  mov.f32 %f1, 0f00000000;
  mov.u32 %r3, 0;
$L_loop:
PRAGMA
  ld.global.f32 %f2, [%rd4];
  ld.global.f32 %f3, [%rd4+4];
  add.f32 %f4, %f2, %f3;
  add.f32 %f1, %f1, %f4;
  add.s64 %rd4, %rd4, 1024;
  add.s32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, %r1;
  @%p1 bra $L_loop;
  st.global.f32 [%rd2], %f1;
  ret;
}
)";
  auto kernel = [&](std::string name, std::string pragma) {
    std::string text = loop;
    text.replace(text.find("NAME"), 4, name);
    text.replace(text.find("PRAGMA"), 6, pragma);
    return text;
  };
  auto unrolled = estimate(module(kernel("unrolled", "")));
  auto kept = estimate(module(kernel("kept", "  .pragma \"nounroll\";")));
  REQUIRE(unrolled.size() == 1);
  REQUIRE(kept.size() == 1);
  CHECK(unrolled[0].registers == kept[0].registers + 6);
  CHECK(kept[0].registers >= 9);
  CHECK(kept[0].registers <= 11);
  // A loop stepping by a register has no trip count ptxas can compute: it stays rolled.
  std::string strided = kernel("strided", "");
  strided.replace(strided.find("add.s32 %r3, %r3, 1;"), 20, "add.s32 %r3, %r3, %r2;");
  auto rolled = estimate(module(strided));
  REQUIRE(rolled.size() == 1);
  CHECK(rolled[0].registers < unrolled[0].registers);
}

TEST_CASE("Expanded instructions need temporaries, and opaque calls follow the ABI", "[registers]") {
  // ptxas -v (sm_80): divide 16, multiply 8; calls 24 (-c, the callee is external).
  std::string text = module(R"(.visible .entry divide(.param .u64 p)
{
  .reg .f32 %f<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.f32 %f1, [%rd1];
  ld.global.f32 %f2, [%rd1+4];
  div.rn.f32 %f3, %f1, %f2;
  st.global.f32 [%rd1], %f3;
  ret;
}
.visible .entry multiply(.param .u64 p)
{
  .reg .f32 %f<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.f32 %f1, [%rd1];
  ld.global.f32 %f2, [%rd1+4];
  mul.f32 %f3, %f1, %f2;
  st.global.f32 [%rd1], %f3;
  ret;
}
.extern .func (.param .b32 r) external(.param .b32 a);
.visible .entry calls(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1];
  {
    .param .b32 a;
    .param .b32 r;
    st.param.b32 [a], %r1;
    call.uni (r), external, (a);
    ld.param.b32 %r2, [r];
  }
  st.global.u32 [%rd1], %r2;
  ret;
}
)");
  auto estimates = estimate(text);
  REQUIRE(estimates.size() == 3);
  // div.rn.f32 calls a slow path that needs 8 temporaries beside its operands (one more
  // register may go to the alignment of the pair that stays live across it).
  CHECK(estimates[0].registers >= estimates[1].registers + 8);
  CHECK(estimates[0].registers <= estimates[1].registers + 9);
  CHECK(estimates[0].registers == 16);
  CHECK(estimates[1].registers >= 7);
  CHECK(estimates[1].registers <= 8);
  CHECK(estimates[2].registers == 24);
}

TEST_CASE("Vector results take aligned consecutive registers, and shared pointers are 32-bit", "[registers]") {
  // tex.v4 with all four results read: SASS writes R4..R7, an aligned quad, whatever else is
  // live. ptxas -v (sm_75, zluda's tex_read_1d_float): 10 registers.
  std::string texture = module(R"(.global .texref tex;
.visible .entry fetch(.param .u64 out, .param .f32 x)
{
  .reg .u64 %rd1;
  .reg .f32 %fx;
  .reg .f32 %f0, %f1, %f2, %f3;
  ld.param.u64 %rd1, [out];
  ld.param.f32 %fx, [x];
  tex.1d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [tex, {%fx}];
  st.global.v4.f32 [%rd1], {%f0, %f1, %f2, %f3};
  ret;
}
)",
                               "sm_75");
  auto fetched = estimate(texture);
  REQUIRE(fetched.size() == 1);
  CHECK(fetched[0].registers == 10);
  // A 64-bit pointer into shared memory (old compilers' style) holds a 32-bit offset in SASS.
  std::string shared = module(R"(.visible .entry k()
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 buffer[1024];
  mov.u64 %rd1, buffer;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.shared.u32 %r2, [%rd3];
  add.u32 %r3, %r2, 1;
  st.shared.u32 [%rd3+4], %r3;
  ret;
}
)");
  auto narrowed = estimate(shared);
  REQUIRE(narrowed.size() == 1);
  // %rd2 and %rd3 only ever address shared memory: one unit each, never a pair.
  CHECK(narrowed[0].maxLiveUnits <= 2);
}

TEST_CASE("A texture fetch reads its coordinates", "[registers]") {
  // The coordinates sit inside the address tuple ([tex, {%x, %y}]); they are registers the
  // fetch reads, so they live until it (and take consecutive registers). Here they are
  // computed, then read only by the fetch.
  std::string text = module(R"(.global .texref tex;
.visible .entry fetch2d(.param .u64 out, .param .f32 x, .param .f32 y)
{
  .reg .u64 %rd1;
  .reg .f32 %f<10>;
  ld.param.u64 %rd1, [out];
  ld.param.f32 %f1, [x];
  ld.param.f32 %f2, [y];
  add.f32 %f3, %f1, 0f3F000000;
  add.f32 %f4, %f2, 0f3F000000;
  tex.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [tex, {%f3, %f4}];
  st.global.f32 [%rd1], %f5;
  ret;
}
)",
                            "sm_75");
  const auto e = estimateOne(text);
  // At the fetch: %f3 and %f4 (its coordinates).
  CHECK(e.maxLiveUnits >= 2);
  CHECK(liveAtPeak(e, 3));
  CHECK(liveAtPeak(e, 4));
}

TEST_CASE("Many values live across an opaque call cost about two registers each", "[registers]") {
  // 20 loaded values and the address pair live across a call of an .extern function:
  // ptxas -v -c (sm_80): 50 registers (2 x 22 units + 6); with 4 values, 26 (20 + 6).
  auto kernel = [](int values) {
    std::string body =
        ".extern .func (.param .b32 r) external(.param .b32 a);\n"
        ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %r<4>;\n  .reg .b32 %k<48>;\n"
        "  .reg .b32 %acc<48>;\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [p];\n"
        "  ld.global.u32 %r1, [%rd1];\n";
    for (int i = 1; i <= values; ++i) {
      body += "  ld.volatile.global.u32 %k" + std::to_string(i) + ", [%rd1+" + std::to_string(4 * i + 4) + "];\n";
    }
    body +=
        "  {\n    .param .b32 a;\n    .param .b32 r;\n    st.param.b32 [a], %r1;\n"
        "    call.uni (r), external, (a);\n    ld.param.b32 %r2, [r];\n  }\n";
    std::string accumulator = "%r2";
    for (int i = 1; i <= values; ++i) {
      body += "  xor.b32 %acc" + std::to_string(i) + ", " + accumulator + ", %k" + std::to_string(i) + ";\n";
      accumulator = "%acc" + std::to_string(i);
    }
    body += "  st.global.u32 [%rd1], " + accumulator + ";\n  ret;\n}\n";
    return module(body);
  };
  auto many = estimate(kernel(20));
  auto few = estimate(kernel(4));
  REQUIRE(many.size() == 1);
  REQUIRE(few.size() == 1);
  CHECK(many[0].registers == 50);
  CHECK(few[0].registers == 26);
}

TEST_CASE("Register choice: operands from both banks, no rewrite right after a memory read", "[registers]") {
  // At most 6 units are live (%rd4 or %rd6, %rd2, %r3), which a compact allocation fits in
  // R0..R7 (10 reported). ptxas spreads: the sum reads both loaded values, so the second goes
  // to the other bank; and the address registers the loads just read are not reused at once.
  // The model follows both preferences below the full-occupancy count. ptxas -v (sm_75): 12.
  std::string text = module(R"(.visible .entry vadd(.param .u64 a, .param .u64 b, .param .u64 c, .param .s32 n)
{
  .reg .u16 %rh<3>;
  .reg .u32 %r<6>;
  .reg .u64 %rd<10>;
  .reg .f32 %f<4>;
  .reg .pred %p<2>;
  mov.u16 %rh1, %ctaid.x;
  mov.u16 %rh2, %ntid.x;
  mul.wide.u16 %r1, %rh1, %rh2;
  cvt.u32.u16 %r2, %tid.x;
  add.u32 %r3, %r2, %r1;
  ld.param.s32 %r4, [n];
  setp.le.s32 %p1, %r4, %r3;
  @%p1 bra DONE;
  mul.wide.s32 %rd2, %r3, 4;
  ld.param.u64 %rd3, [a];
  add.u64 %rd4, %rd3, %rd2;
  ld.global.f32 %f1, [%rd4];
  ld.param.u64 %rd5, [b];
  add.u64 %rd6, %rd5, %rd2;
  ld.global.f32 %f2, [%rd6];
  add.f32 %f3, %f1, %f2;
  ld.param.u64 %rd7, [c];
  add.u64 %rd8, %rd7, %rd2;
  st.global.f32 [%rd8], %f3;
DONE:
  exit;
}
)",
                            "sm_75");
  const auto e = estimateOne(text);
  CHECK(e.maxLiveUnits == 6);
  CHECK(e.registers == 12);
}

TEST_CASE("A recursive callee is called through the ABI: its registers are not added to the caller's", "[registers]") {
  // count_down calls itself, so ptxas cannot inline it: the kernel needs as many registers as
  // the callee, and the ABI floor for what lives across the call (20 + units), not the
  // callee's registers plus the live units. ptxas -v (sm_80): 26 with 4 values and the
  // address pair live across the call, 30 with 8 values.
  auto kernel = [](int vectors) {
    std::string body = R"(.func (.param .b32 r) count_down(.param .b32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  ld.param.b32 %r1, [n];
  setp.lt.s32 %p1, %r1, 1;
  mov.b32 %r5, 0;
  @%p1 bra DONE;
  add.s32 %r2, %r1, -1;
  {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], %r2;
    call.uni (b), count_down, (a);
    ld.param.b32 %r3, [b];
  }
  add.s32 %r5, %r3, %r1;
DONE:
  st.param.b32 [r], %r5;
  ret;
}

.visible .entry k(.param .u64 p, .param .u32 n)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mul.wide.u32 %rd2, %r2, 32;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd3];
)";
    if (vectors == 2) body += "  ld.global.v4.u32 {%r8, %r9, %r10, %r11}, [%rd3+16];\n";
    body += R"(  {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], %r1;
    call.uni (b), count_down, (a);
    ld.param.b32 %r3, [b];
  }
  add.s32 %r4, %r4, %r3;
  add.s32 %r5, %r5, %r3;
  add.s32 %r6, %r6, %r3;
  add.s32 %r7, %r7, %r3;
  st.global.v4.u32 [%rd3], {%r4, %r5, %r6, %r7};
)";
    if (vectors == 2) {
      body +=
          "  add.s32 %r8, %r8, %r3;\n  add.s32 %r9, %r9, %r3;\n  add.s32 %r10, %r10, %r3;\n"
          "  add.s32 %r11, %r11, %r3;\n  st.global.v4.u32 [%rd3+16], {%r8, %r9, %r10, %r11};\n";
    }
    body += "  ret;\n}\n";
    return module(body);
  };
  auto one = estimate(kernel(1));
  auto two = estimate(kernel(2));
  REQUIRE(one.size() == 2);
  REQUIRE(two.size() == 2);
  // [0] is count_down, [1] the kernel.
  CHECK(one[0].registers == 24);
  CHECK(one[1].registers == 26);
  CHECK(two[1].registers == 30);
}

TEST_CASE("Pointers into the local stack frame are 32-bit", "[registers]") {
  // nvcc addresses a local array from the 64-bit %SPL; SASS addresses local memory with
  // 32-bit offsets (STL [R1+0x8]), so %rd4, %rd5 and %rd7 take one register each. ptxas -v
  // (sm_80): 12; with 64-bit pointers the estimate would be 14.
  std::string text = module(R"(.visible .entry stack_array(.param .u64 out, .param .u32 n)
{
  .local .align 4 .b8 __local_depot0[64];
  .reg .b64 %SPL;
  .reg .b32 %r<12>;
  .reg .b64 %rd<12>;
  mov.u64 %SPL, __local_depot0;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  and.b32 %r3, %r2, 15;
  and.b32 %r4, %r1, 15;
  mul.wide.u32 %rd2, %r3, 4;
  mul.wide.u32 %rd3, %r4, 4;
  add.u64 %rd4, %SPL, %rd2;
  add.u64 %rd5, %SPL, %rd3;
  st.local.u32 [%rd4], %r2;
  st.local.u32 [%rd5], %r1;
  add.u32 %r5, %r2, 3;
  and.b32 %r6, %r5, 15;
  mul.wide.u32 %rd6, %r6, 4;
  add.u64 %rd7, %SPL, %rd6;
  ld.local.u32 %r7, [%rd7];
  ld.local.u32 %r8, [%rd4];
  ld.local.u32 %r9, [%rd5];
  add.u32 %r10, %r7, %r8;
  add.u32 %r11, %r10, %r9;
  cvta.to.global.u64 %rd8, %rd1;
  mul.wide.u32 %rd9, %r2, 4;
  add.s64 %rd10, %rd8, %rd9;
  st.global.u32 [%rd10], %r11;
  ret;
}
)");
  const auto e = estimateOne(text);
  CHECK(e.maxLiveUnits == 7);
  CHECK(e.registers == 11);
}

TEST_CASE("A shift of a value that stays live is recomputed where it is read, a multiply is kept", "[registers]") {
  // tid << 2 addresses shared memory at nine places while tid itself lives to the end: ptxas
  // folds it into the address ([R0.X4]) instead of holding it; tid * 12 it keeps in a register.
  // ptxas -v (sm_80): 10 with the shift, 12 with the multiply.
  auto kernel = [](std::string_view scale) {
    return module(std::string(R"(.visible .entry scaled(.param .u64 out)
{
  .reg .b32 %r<40>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 tile[4096];
  mov.u32 %r1, %tid.x;
  )") + std::string(scale) +
                  R"(
  ld.shared.u32 %r10, [%r3];
  ld.shared.u32 %r11, [%r3+512];
  ld.shared.u32 %r12, [%r3+1024];
  add.s32 %r13, %r10, %r11;
  add.s32 %r14, %r13, %r12;
  st.shared.u32 [%r3+4], %r14;
  bar.sync 0;
  ld.shared.u32 %r15, [%r3+8];
  ld.shared.u32 %r16, [%r3+2048];
  ld.shared.u32 %r17, [%r3+3072];
  add.s32 %r18, %r15, %r16;
  add.s32 %r19, %r18, %r17;
  st.shared.u32 [%r3], %r19;
  bar.sync 0;
  ld.shared.u32 %r21, [%r3+12];
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r21;
  ret;
}
)");
  };
  auto shifted = estimate(kernel("shl.b32 %r3, %r1, 2;"));
  auto multiplied = estimate(kernel("mul.lo.s32 %r3, %r1, 12;"));
  REQUIRE(shifted.size() == 1);
  REQUIRE(multiplied.size() == 1);
  CHECK(shifted[0].registers == 10);
  CHECK_FALSE(liveAtPeak(shifted[0], 3));
  CHECK(multiplied[0].maxLiveUnits == shifted[0].maxLiveUnits + 1);
  CHECK(liveAtPeak(multiplied[0], 3));
}

TEST_CASE("Texture fetches issue in a batch after all their coordinates", "[registers]") {
  // Six taps, each fetched at coordinates computed from its own constant offsets and weighed
  // into one sum. ptxas computes every tap's coordinates, then issues the six fetches back to
  // back; so at the first fetch the coordinates of all six are live.
  // ptxas -v (sm_80): 18 registers.
  std::string body = R"(.const .align 4 .b8 offsets[64];
.const .align 4 .b8 weights[32];
.visible .entry taps(.param .u64 tex, .param .u64 out, .param .f32 x, .param .f32 y)
{
  .reg .b32 %r<20>;
  .reg .f32 %f<80>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [tex];
  ld.param.u64 %rd2, [out];
  ld.param.f32 %f1, [x];
  ld.param.f32 %f2, [y];
)";
  for (int tap = 0; tap < 6; ++tap) {
    auto f = [&](int k) { return "%f" + std::to_string(10 * tap + 10 + k); };
    auto r = [&](int k) { return "%r" + std::to_string(2 * tap + 1 + k); };
    body += "  ld.const.v2.u32 {" + r(0) + ", " + r(1) + "}, [offsets+" + std::to_string(8 * tap) + "];\n";
    body += "  cvt.rn.f32.s32 " + f(1) + ", " + r(0) + ";\n  cvt.rn.f32.s32 " + f(2) + ", " + r(1) + ";\n";
    body += "  add.f32 " + f(3) + ", %f1, " + f(1) + ";\n  add.f32 " + f(4) + ", %f2, " + f(2) + ";\n";
    body += "  tex.2d.v4.f32.f32 {" + f(5) + ", " + f(6) + ", " + f(7) + ", " + f(8) + "}, [%rd1, {" + f(3) + ", " +
            f(4) + "}];\n";
    body += "  ld.const.f32 " + f(9) + ", [weights+" + std::to_string(4 * tap) + "];\n";
    if (tap == 0) {
      body += "  mul.f32 %f0, " + f(9) + ", " + f(5) + ";\n";
    } else {
      body += "  fma.rn.f32 %f0, " + f(9) + ", " + f(5) + ", %f0;\n";
    }
  }
  body += "  st.global.f32 [%rd2], %f0;\n  ret;\n}\n";
  const auto e = estimateOne(module(body));
  CHECK(e.registers == 18);
  // The last tap's coordinates (%f63, %f64) are live together with the first tap's result.
  CHECK(liveAtPeak(e, 63));
  CHECK(liveAtPeak(e, 64));
}

TEST_CASE("A texture fetch reads only the coordinates its geometry has", "[registers]") {
  // Older compilers pass .2d coordinates as a .v4 vector padded with zeros; ptxas reads the
  // first two (SASS: TEX ... R4, R4, ... 2D) and drops whatever computes the rest.
  // ptxas -v (sm_80): 12 registers for either form.
  auto kernel = [](std::string_view coordinates) {
    return module(std::string(R"(.global .texref tex;
.visible .entry fetch(.param .u64 out, .param .f32 x, .param .f32 y)
{
  .reg .u64 %rd<4>;
  .reg .f32 %f<20>;
  .reg .b32 %r<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.v2.f32 {%f5, %f6}, [%rd3];
  ld.param.f32 %f1, [x];
  ld.param.f32 %f2, [y];
  cvt.rn.f32.u32 %f9, %r1;
  add.f32 %f3, %f1, %f9;
  mul.f32 %f4, %f2, %f9;
  mul.f32 %f7, %f1, %f2;
  add.f32 %f8, %f1, %f2;
  tex.2d.v4.f32.f32 {%f10, %f11, %f12, %f13}, [tex, )") +
                  std::string(coordinates) + R"(];
  add.f32 %f14, %f10, %f5;
  add.f32 %f15, %f11, %f6;
  st.global.v2.f32 [%rd3], {%f14, %f15};
  ret;
}
)");
  };
  const auto padded = estimateOne(kernel("{%f3, %f4, %f7, %f8}"));
  const auto exact = estimateOne(kernel("{%f3, %f4}"));
  CHECK(padded.registers == exact.registers);
  CHECK(padded.maxLiveUnits == exact.maxLiveUnits);
  CHECK_FALSE(liveAtPeak(padded, 7));
  CHECK_FALSE(liveAtPeak(padded, 8));
}

TEST_CASE("Immediates need no register, except a second one in the same instruction", "[registers]") {
  // Two polynomials share five constants moved into registers once; each is read where an
  // immediate operand fits, so none holds a register between the polynomials.
  // ptxas -v (sm_80): 10 registers.
  std::string polynomials = module(R"(.visible .entry poly(.param .u64 data)
{
  .reg .u64 %rd<4>;
  .reg .f32 %f<60>;
  .reg .b32 %r<4>;
  ld.param.u64 %rd1, [data];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.v2.f32 {%f1, %f2}, [%rd3];
  mov.f32 %f53, 0f3C80F082;
  mov.f32 %f54, 0fBD563CAE;
  mov.f32 %f55, 0f3E085941;
  mov.f32 %f56, 0fBEAAA9ED;
  mov.f32 %f57, 0f3F000000;
  mul.f32 %f10, %f1, %f1;
  fma.rn.f32 %f11, %f10, %f53, %f54;
  fma.rn.f32 %f12, %f11, %f10, %f55;
  fma.rn.f32 %f13, %f12, %f10, %f56;
  fma.rn.f32 %f14, %f13, %f10, %f57;
  mul.f32 %f20, %f2, %f2;
  fma.rn.f32 %f21, %f20, %f53, %f54;
  fma.rn.f32 %f22, %f21, %f20, %f55;
  fma.rn.f32 %f23, %f22, %f20, %f56;
  fma.rn.f32 %f24, %f23, %f20, %f57;
  st.global.v2.f32 [%rd3], {%f14, %f24};
  ret;
}
)");
  const auto e = estimateOne(polynomials);
  CHECK(e.registers == 10);
  for (unsigned constant : {55u, 56u, 57u}) CHECK_FALSE(liveAtPeak(e, constant));

  // `fma %f9, %f53, %f1, %f54` reads two constants; a SASS instruction has one immediate
  // slot, so one of them takes a register, here while eight loaded values are live.
  // ptxas -v (sm_80): 16 registers; 14 when the multiplier is a loaded value (%f2).
  auto slot = [](std::string_view multiplier) {
    return module(R"(.visible .entry slot(.param .u64 data)
{
  .reg .u64 %rd<4>;
  .reg .f32 %f<60>;
  .reg .b32 %r<4>;
  ld.param.u64 %rd1, [data];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 32;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd3];
  ld.global.v4.f32 {%f5, %f6, %f7, %f8}, [%rd3+16];
  mov.f32 %f53, 0f3C80F082;
  mov.f32 %f54, 0fBD563CAE;
  fma.rn.f32 %f9, )" +
                  std::string(multiplier) +
                  R"(, %f1, %f54;
  mul.f32 %f10, %f9, %f2;
  mul.f32 %f11, %f10, %f3;
  mul.f32 %f12, %f11, %f4;
  mul.f32 %f13, %f12, %f5;
  mul.f32 %f14, %f13, %f6;
  mul.f32 %f15, %f14, %f7;
  mul.f32 %f16, %f15, %f8;
  st.global.f32 [%rd3], %f16;
  ret;
}
)");
  };
  const auto twoImmediates = estimateOne(slot("%f53"));
  const auto oneImmediate = estimateOne(slot("%f2"));
  CHECK(twoImmediates.registers == 16);
  CHECK(oneImmediate.registers == 14);
  CHECK(twoImmediates.maxLiveUnits == oneImmediate.maxLiveUnits + 1);
}

TEST_CASE("Expansion temporaries come from an instruction's facts", "[registers]") {
  // The figures measured by scripts/expansion-registers.py (registers/Constants.h).
  auto temporaries = [](std::string_view opcode, std::vector<std::string_view> modifiers) {
    return registers::expansionTemporaries(resolveFacts(opcode, modifiers));
  };
  CHECK(temporaries("div", {".rn", ".f32"}) == 8);
  CHECK(temporaries("div", {".rn", ".f64"}) == 16);
  CHECK(temporaries("div", {".approx", ".f32"}) == 0);
  CHECK(temporaries("div", {".full", ".f32"}) == 0);
  CHECK(temporaries("div", {".s32"}) == 8);
  CHECK(temporaries("div", {".u64"}) == 12);
  CHECK(temporaries("rem", {".s64"}) == 14);
  CHECK(temporaries("rcp", {".approx", ".f32"}) == 0);
  CHECK(temporaries("rcp", {".approx", ".ftz", ".f64"}) == 10);
  CHECK(temporaries("sqrt", {".rn", ".f32"}) == 7);
  CHECK(temporaries("rsqrt", {".approx", ".f64"}) == 10);
  CHECK(temporaries("rsqrt", {".approx", ".f32"}) == 0);
  CHECK(temporaries("mul", {".hi", ".s64"}) == 7);
  CHECK(temporaries("mul", {".lo", ".s64"}) == 0);
  CHECK(temporaries("popc", {".b64"}) == 3);
  CHECK(temporaries("add", {".s64"}) == 0);
}

TEST_CASE("The family table: how the scheduler and the lowering see an instruction", "[registers]") {
  using registers::classOf;
  using registers::ScheduleKind;
  CHECK(classOf(Family::Ld).schedule == ScheduleKind::Load);
  CHECK(classOf(Family::Ld).has(registers::kReadsOperandsLate));
  CHECK(classOf(Family::Tex).has(registers::kTextureFetch));
  CHECK(!classOf(Family::Suld).has(registers::kTextureFetch));
  CHECK(classOf(Family::Add).has(registers::kOneCycleInteger));
  CHECK(!classOf(Family::Mul).has(registers::kOneCycleInteger));
  CHECK(classOf(Family::Cvta).schedule == ScheduleKind::Free);
  CHECK(classOf(Family::Cvta).has(registers::kInlineOperands));
  CHECK(classOf(Family::Div).schedule == ScheduleKind::SlowAlu);
  CHECK(classOf(Family::Shfl).schedule == ScheduleKind::SlowAlu);
  CHECK(!classOf(Family::Shfl).has(registers::kInlineOperands));
  CHECK(classOf(Family::Bar).has(registers::kNotPredicated));
  CHECK(classOf(Family::Wgmma).schedule == ScheduleKind::Ordered);
  CHECK(classOf(Family::Unknown).schedule == ScheduleKind::Ordered);
  CHECK(classOf(Family::Unknown).traits == 0);
  // A texture fetch reads as many coordinates as its geometry has.
  std::vector<std::string_view> array2d{".a2d", ".v4", ".f32", ".f32"};
  CHECK(registers::textureCoordinates(resolveFacts("tex", array2d)) == 3);
  std::vector<std::string_view> plain{".v4", ".f32", ".f32"};
  CHECK(registers::textureCoordinates(resolveFacts("tex", plain)) == 0);
}

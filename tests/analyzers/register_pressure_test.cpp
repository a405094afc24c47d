// The register estimate (analyzers/registers/RegisterPressure.h): lowering to 32-bit units,
// liveness over the CFG, allocation with pair alignment and R1 reserved, budgets. Expected
// figures are worked out by hand in the comments; where ptxas was run on the same PTX, its
// `-v` figure is quoted.
#include <catch2/catch.hpp>

#include "Lint.h"
#include "TestSupport.h"
#include "flow/FunctionFlow.h"
#include "registers/RegisterPressure.h"

using namespace ptx;

namespace {

std::vector<registers::RegisterEstimate> estimate(const std::string& text) {
  LintResult result = lintText(text);
  REQUIRE(result.tree.isComplete());
  flow::FlowCache flows(text, result.module);
  return registers::estimateRegisters(text, result.module, flows);
}

std::string module(std::string_view body, std::string_view target = "sm_80") {
  return ".version 8.0\n.target " + std::string(target) + "\n.address_size 64\n\n" + std::string(body);
}

}  // namespace

TEST_CASE("Straight-line code: max live counts 32-bit units, a 64-bit value takes an aligned pair", "[registers]") {
  // in/out are kernel parameters read from the constant bank: they hold a register only
  // where an instruction uses them. At `add.s64 %rd3, %rd2, 8` the live values are %rd2 (a
  // pair) and, after it, %rd3; with R1 reserved for the stack pointer the pairs go to R2:R3
  // (R0 stays for 32-bit values), so at least 4 registers. ptxas -v (sm_80): 6 registers.
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
  auto estimates = estimate(text);
  REQUIRE(estimates.size() == 1);
  const auto& e = estimates[0];
  // Before the second load: %rd1 (2 units) and %r1 (1).
  CHECK(e.maxLiveUnits == 3);
  // R0 = %r1, R1 reserved, R2:R3 = %rd1 → 4 registers.
  CHECK(e.registers == 4);
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
  auto estimates = estimate(text);
  REQUIRE(estimates.size() == 1);
  const auto& e = estimates[0];
  // In the loop: %f1..%f4, %f5 and %r2: 6 units, plus %r1 (the bound, read from the constant
  // bank: it holds a register only at the setp that uses it) = 7. %rd1 is a kernel parameter
  // too and is not live across the loop for the same reason.
  CHECK(e.maxLiveUnits == 7);
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
  // The second load (index 2): %rd1 read (2 units) with %r1 live across it, then %r1 and %r2.
  CHECK(estimates[0].liveUnits[2] == 3);
  // The setp: %r1 and %r2 before it, %r1 after it.
  CHECK(estimates[0].liveUnits[3] == 2);
}

TEST_CASE("Budgets: .maxnreg, the launch-bounds ceiling, and spills beyond them", "[registers]") {
  // The ceiling table of docs/cuda-facts §4.3, measured with ptxas on sm_80, sm_90 and sm_120.
  CHECK(registers::launchBoundsRegisterCeiling(1024, 1) == 64);
  CHECK(registers::launchBoundsRegisterCeiling(384, 2) == 80);
  CHECK(registers::launchBoundsRegisterCeiling(160, 3) == 128);
  CHECK(registers::launchBoundsRegisterCeiling(64, 8) == 128);
  CHECK(registers::launchBoundsRegisterCeiling(32, 1) == 255);

  // 40 floats loaded by volatile loads and summed in reverse: all 40 live at once.
  std::string body = ".visible .entry k(.param .u64 src) .maxnreg 24\n{\n  .reg .f32 %f<42>;\n  .reg .b64 %rd<2>;\n"
                     "  ld.param.u64 %rd1, [src];\n";
  for (int i = 0; i < 40; ++i) body += "  ld.volatile.global.f32 %f" + std::to_string(i) + ", [%rd1+" + std::to_string(4 * i) + "];\n";
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

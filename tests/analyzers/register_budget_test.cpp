// Register budgets and setmaxnreg (analyzers/registers/Budget.h, RegisterPressure.h): the
// per-thread limit a function's directives set (.maxnreg, .maxntid with .minnctapersm), the
// architecture the module compiles for and its full-occupancy count, and the figure the
// estimate reports for a kernel that resizes its registers with setmaxnreg.
#include <catch2/catch.hpp>

#include "Lint.h"
#include "TestSupport.h"
#include "flow/FunctionFlow.h"
#include "registers/Budget.h"
#include "registers/RegisterPressure.h"

using namespace ptx;

namespace {

std::string module(std::string_view body, std::string_view target = "sm_80", std::string_view version = "8.0") {
  return ".version " + std::string(version) + "\n.target " + std::string(target) + "\n.address_size 64\n\n" +
         std::string(body);
}

// A kernel with the given header directives and a trivial body.
std::string kernel(std::string_view directives) {
  return ".visible .entry k(.param .u64 out) " + std::string(directives) +
         "\n{\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [out];\n  st.global.u32 [%rd1], 1;\n  ret;\n}\n";
}

// The budget of the first function of a module.
registers::RegisterBudget budgetOf(const std::string& text) {
  LintResult result = lintText(text);
  REQUIRE(!result.module.functions.empty());
  return registers::registerBudget(result.module.functions[0]);
}

// The estimate of a module with one function; the module must lint without errors.
registers::RegisterEstimate estimateOne(const std::string& text) {
  LintResult result = lintText(text);
  for (const Diagnostic& diagnostic : result.diagnostics) {
    INFO(diagnostic.rule << ": " << diagnostic.message);
    CHECK(diagnostic.severity != Severity::Error);
  }
  flow::FlowCache flows(text, result.module);
  auto estimates = registers::estimateRegisters(text, result.module, flows);
  REQUIRE(estimates.size() == 1);
  return estimates[0];
}

}  // namespace

TEST_CASE("Without .maxnreg or .maxntid the budget is the architectural 255", "[registers][budget]") {
  registers::RegisterBudget budget = budgetOf(module(kernel("")));
  CHECK(budget.registers == 255);
  CHECK(budget.reason == "255 per thread");
}

TEST_CASE(".minnctapersm without .maxntid sets no budget", "[registers][budget]") {
  CHECK(budgetOf(module(kernel(".minnctapersm 4"))).registers == 255);
}

TEST_CASE(".maxnreg is the budget, raised to 24 as ptxas does", "[registers][budget]") {
  registers::RegisterBudget budget = budgetOf(module(kernel(".maxnreg 64")));
  CHECK(budget.registers == 64);
  CHECK(budget.reason == ".maxnreg 64");
  registers::RegisterBudget raised = budgetOf(module(kernel(".maxnreg 16")));
  CHECK(raised.registers == 24);
  CHECK(raised.reason == ".maxnreg 16");
}

TEST_CASE(".maxnreg wins over launch bounds", "[registers][budget]") {
  registers::RegisterBudget budget = budgetOf(module(kernel(".maxntid 1024, 1, 1 .minnctapersm 2 .maxnreg 40")));
  CHECK(budget.registers == 40);
  CHECK(budget.reason == ".maxnreg 40");
}

TEST_CASE(".maxntid alone: one block per SM", "[registers][budget]") {
  // 256 threads = 8 warps, 2 per sub-partition: 16384 / 2 / 32 = 256 per thread, capped at 255.
  registers::RegisterBudget small = budgetOf(module(kernel(".maxntid 256, 1, 1")));
  CHECK(small.registers == 255);
  CHECK(small.reason == ".maxntid 256 / .minnctapersm 1");
  // 16 x 16 x 4 = 1024 threads = 32 warps, 8 per sub-partition: 16384 / 8 / 32 = 64.
  registers::RegisterBudget large = budgetOf(module(kernel(".maxntid 16, 16, 4")));
  CHECK(large.registers == 64);
  CHECK(large.reason == ".maxntid 1024 / .minnctapersm 1");
}

TEST_CASE(".maxntid with .minnctapersm: the blocks share the register file", "[registers][budget]") {
  // 256 threads x 4 blocks = 32 warps, 8 per sub-partition: 2048 registers per warp, 64 per thread.
  registers::RegisterBudget budget = budgetOf(module(kernel(".maxntid 256, 1, 1 .minnctapersm 4")));
  CHECK(budget.registers == 64);
  CHECK(budget.reason == ".maxntid 256 / .minnctapersm 4");
  // 128 threads x 3 blocks = 12 warps, 3 per sub-partition: 16384 / 3 = 5461, rounded down to
  // the 256-register granularity 5376, 168 per thread.
  CHECK(budgetOf(module(kernel(".maxntid 128, 1, 1 .minnctapersm 3"))).registers == 168);
}

TEST_CASE("The launch-bounds ceiling is the same on every architecture", "[registers][budget]") {
  // The register file per sub-partition (16384) has not changed from sm_75 to sm_90.
  for (std::string_view target : {"sm_75", "sm_80", "sm_86", "sm_90"}) {
    INFO(target);
    registers::RegisterEstimate estimate = estimateOne(module(kernel(".maxntid 256, 1, 1 .minnctapersm 4"), target));
    CHECK(estimate.budget == 64);
    CHECK(estimate.budgetReason == ".maxntid 256 / .minnctapersm 4");
  }
}

TEST_CASE("The compiled architecture and its full-occupancy count", "[registers][budget]") {
  auto architecture = [](const std::string& text) {
    LintResult result = lintText(text);
    return registers::compiledArchitecture(text, result.module);
  };
  CHECK(architecture(module(kernel(""), "sm_90a")) == 90);
  CHECK(architecture(module(kernel(""), "sm_86")) == 86);
  // ptxas 13 compiles nothing below sm_75.
  CHECK(architecture(module(kernel(""), "sm_70")) == 75);
  CHECK(architecture(".version 8.0\n.address_size 64\n" + kernel("")) == 75);
  // 65536 registers over the SM's threads, in steps of 8.
  CHECK(registers::fullOccupancyRegisters(75) == 64);
  CHECK(registers::fullOccupancyRegisters(80) == 32);
  CHECK(registers::fullOccupancyRegisters(86) == 40);
  CHECK(registers::fullOccupancyRegisters(89) == 40);
  CHECK(registers::fullOccupancyRegisters(90) == 32);
}

TEST_CASE("Declared threads per block: .reqntid before .maxntid, dimensions multiplied", "[registers][budget]") {
  auto threads = [](const std::string& text) {
    LintResult result = lintText(text);
    return registers::declaredThreadsPerBlock(result.module.functions[0]);
  };
  CHECK(threads(module(kernel(""))) == std::nullopt);
  CHECK(threads(module(kernel(".maxntid 32, 4, 2"))) == 256u);
  CHECK(threads(module(kernel(".reqntid 64, 2, 1"))) == 128u);
}

TEST_CASE("Register bounds: .maxnreg, .maxntid or .minnctapersm, not .reqntid", "[registers][budget]") {
  auto bounded = [](const std::string& text) {
    LintResult result = lintText(text);
    return registers::hasRegisterBounds(result.module.functions[0]);
  };
  CHECK(!bounded(module(kernel(""))));
  CHECK(!bounded(module(kernel(".reqntid 64, 1, 1"))));
  CHECK(bounded(module(kernel(".maxnreg 64"))));
  CHECK(bounded(module(kernel(".maxntid 64, 1, 1"))));
  CHECK(bounded(module(kernel(".minnctapersm 2"))));
}

namespace {

// A warp-specialized kernel: the producer warpgroup gives registers back, the consumer takes
// more. `bounds` is the performance-tuning directives of its header.
std::string warpSpecialized(std::string_view bounds) {
  std::string text = ".visible .entry k(.param .u64 out)\n";
  text += bounds;
  text += R"({
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 128;
  @%p1 bra PRODUCER;
  setmaxnreg.inc.sync.aligned.u32 232;
  bra DONE;
PRODUCER:
  setmaxnreg.dec.sync.aligned.u32 40;
DONE:
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], %r1;
  ret;
}
)";
  return module(text, "sm_90a");
}

}  // namespace

TEST_CASE("setmaxnreg: the launch allocation follows the kernel's register limit, as ptxas 13 reports it",
          "[registers][setmaxnreg]") {
  // ptxas -v --gpu-name sm_90a on each of these kernels (CUDA 13.0) printed "Used N registers".
  struct Case {
    const char* bounds;
    std::uint32_t ptxasRegisters;
  };
  const Case cases[] = {
      {"", 8},                                    // No limit: what the code needs.
      {".maxntid 256, 1, 1\n", 8},                // .maxntid alone is no register limit.
      {".reqntid 384, 1, 1\n", 8},
      {".maxntid 256, 1, 1\n.minnctapersm 1\n", 232},  // Ceiling 255: the largest request.
      {".maxntid 384, 1, 1\n.minnctapersm 1\n", 168},  // Ceiling 168 caps the request.
      {".maxnreg 240\n", 232},
      {".maxnreg 168\n", 168},
  };
  for (const Case& c : cases) {
    INFO("bounds: " << c.bounds);
    registers::RegisterEstimate estimate = estimateOne(warpSpecialized(c.bounds));
    CHECK(estimate.afterSetmaxnreg == 232);
    if (c.ptxasRegisters > 100) {
      CHECK(estimate.registers == c.ptxasRegisters);
    } else {
      // The code's own need: an estimate, near ptxas's figure and far below the request.
      CHECK(estimate.registers < 16);
    }
  }
}

TEST_CASE("setmaxnreg below the allocation leaves the figure to the allocation", "[registers][setmaxnreg]") {
  // 24 values loaded together and summed: about 30 registers, more than the 24 requested.
  std::string body =
      ".visible .entry k(.param .u64 src)\n{\n  .reg .f32 %f<26>;\n  .reg .b64 %rd<2>;\n"
      "  ld.param.u64 %rd1, [src];\n";
  for (int i = 0; i < 24; ++i)
    body += "  ld.volatile.global.f32 %f" + std::to_string(i) + ", [%rd1+" + std::to_string(4 * i) + "];\n";
  body += "  mov.f32 %f24, %f23;\n";
  for (int i = 22; i >= 0; --i) body += "  add.rn.f32 %f24, %f24, %f" + std::to_string(i) + ";\n";
  body += "  st.global.f32 [%rd1], %f24;\n  setmaxnreg.dec.sync.aligned.u32 24;\n  ret;\n}\n";
  registers::RegisterEstimate with = estimateOne(module(body, "sm_90a"));
  std::string without = body;
  without.erase(without.find("  setmaxnreg"), std::string("  setmaxnreg.dec.sync.aligned.u32 24;\n").size());
  registers::RegisterEstimate plain = estimateOne(module(without, "sm_90a"));
  CHECK(with.registers > 24);
  CHECK(with.registers == plain.registers);
  CHECK(with.afterSetmaxnreg == 24);
  CHECK(plain.afterSetmaxnreg == 0);
}

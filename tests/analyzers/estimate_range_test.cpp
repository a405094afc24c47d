// The estimate's calibrated range (registers/EstimateRange.h): its shape for every kind and
// estimate (it contains the estimate, stays in [1, 255], never falls as the estimate grows),
// the report's range, and PRF002, which fires only when the whole range lies past the cliff.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>

#include "Lint.h"
#include "TestSupport.h"
#include "registers/EstimateRange.h"
#include "registers/RegisterReport.h"

using namespace ptx;
using namespace ptx::registers;
namespace fs = std::filesystem;

namespace {

constexpr RangeKind kKinds[] = {RangeKind::Calls, RangeKind::Textures, RangeKind::Loops, RangeKind::Straight};

}  // namespace

TEST_CASE("The range contains the estimate and stays within [1, 255]", "[registers][range]") {
  for (RangeKind kind : kKinds) {
    for (std::uint32_t registers = 0; registers <= 300; ++registers) {
      INFO(rangeKindName(kind) << " " << registers);
      EstimateRange range = estimateRange(registers, kind);
      std::uint32_t clamped = std::clamp<std::uint32_t>(registers, 1, 255);
      CHECK(range.low >= 1);
      CHECK(range.high <= 255);
      CHECK(range.low <= clamped);
      CHECK(clamped <= range.high);
    }
  }
}

TEST_CASE("The range never falls as the estimate grows, across bands too", "[registers][range]") {
  for (RangeKind kind : kKinds) {
    EstimateRange previous = estimateRange(1, kind);
    for (std::uint32_t registers = 2; registers <= 255; ++registers) {
      INFO(rangeKindName(kind) << " " << registers);
      EstimateRange range = estimateRange(registers, kind);
      CHECK(range.low >= previous.low);
      CHECK(range.high >= previous.high);
      previous = range;
    }
    // Past 255 (a demand with spills, for PRF001) the low end keeps not falling.
    std::uint32_t low = demandLowEnd(255, kind);
    CHECK(low == estimateRange(255, kind).low);
    for (std::uint32_t demand = 256; demand <= 600; ++demand) {
      CHECK(demandLowEnd(demand, kind) >= low);
      low = demandLowEnd(demand, kind);
    }
  }
}

TEST_CASE("The calibrated ratios bracket 1", "[registers][range]") {
  for (RangeKind kind : kKinds) {
    for (std::size_t band = 0; band < kRangeBands; ++band) {
      RangeRatios ratios = rangeRatiosFor(kind, band);
      CHECK(ratios.low > 0);
      CHECK(ratios.low <= 1);
      CHECK(ratios.high >= 1);
    }
  }
}

TEST_CASE("The report carries the range, at most the budget, and its summary shows it", "[registers][range]") {
  std::string text = ".version 8.0\n.target sm_90\n.address_size 64\n" +
                     std::string(".visible .entry k(.param .u64 out) .maxnreg 32\n{\n  .reg .b64 %rd<2>;\n"
                                 "  ld.param.u64 %rd1, [out];\n  st.global.u32 [%rd1], 1;\n  ret;\n}\n");
  LintResult result = lintText(text);
  flow::FlowCache flows(text, result.module);
  std::vector<FunctionRegisterReport> reports = reportRegisters(text, result.module, flows);
  REQUIRE(reports.size() == 1);
  const FunctionRegisterReport& report = reports[0];
  CHECK(report.rangeKind == RangeKind::Straight);
  CHECK(report.range.low <= report.estimate.registers);
  CHECK(report.estimate.registers <= report.range.high);
  CHECK(report.range.high <= 32);
  std::string range = std::to_string(report.range.low) + "-" + std::to_string(report.range.high);
  CHECK(summaryLine(report, /*ascii=*/true)
            .starts_with("~ " + std::to_string(report.estimate.registers) + " registers (" + range + ") - "));
  CHECK(summaryLine(report).find("\u2013") != std::string::npos);
}

// Every case of PRF002 (tests/rules/PRF002), linted with the rule on: a finding exactly where
// the kernel's whole range lies past the cliff below its occupancy step and its low end within
// max(2, a tenth) of it, and the finding quotes the range.
TEST_CASE("PRF002 fires only when the whole range lies past the cliff", "[registers][range][PRF002]") {
  LintOptions options;
  options.rules["PRF002"].enabled = true;
  int firing = 0;
  int silent = 0;
  for (const auto& entry : fs::directory_iterator(test::sourceDir() / "tests" / "rules" / "PRF002")) {
    if (entry.path().extension() != ".ptx") continue;
    INFO(entry.path().filename().string());
    std::string text = test::readFile(entry.path());
    LintResult result = lintText(text, options);
    flow::FlowCache flows(text, result.module);
    std::vector<FunctionRegisterReport> reports = reportRegisters(text, result.module, flows);
    REQUIRE(reports.size() == 1);
    const FunctionRegisterReport& report = reports[0];
    REQUIRE(report.occupancy.has_value());
    std::uint32_t cliff = report.occupancy->fewerRegistersForMoreBlocks;
    bool pastCliff = report.occupancy->limitedBy == "registers" && cliff > 0 && report.range.low > cliff &&
                     cliff + std::max<std::uint32_t>(2, report.range.low / 10) >= report.range.low;
    auto finding = std::find_if(result.diagnostics.begin(), result.diagnostics.end(),
                                [](const Diagnostic& diagnostic) { return diagnostic.rule == "PRF002"; });
    CHECK((finding != result.diagnostics.end()) == pastCliff);
    if (finding != result.diagnostics.end()) {
      ++firing;
      std::string quoted = "(";
      quoted += std::to_string(report.range.low);
      quoted += '-';
      quoted += std::to_string(report.range.high);
      quoted += ')';
      CHECK(finding->message.find(quoted) != std::string::npos);
    } else {
      ++silent;
    }
  }
  CHECK(firing >= 1);
  CHECK(silent >= 1);
}

// Code lenses: one per function with a body, on its name, titled with the register estimate
// (and, for a kernel on a known target, the occupancy it allows), whose command opens the
// function's register report — as the feature computes them and as the server sends them.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "Annotated.h"
#include "Lint.h"
#include "TestClient.h"
#include "features/CodeLenses.h"
#include "flow/FunctionFlow.h"
#include "registers/RegisterPressure.h"

using nlohmann::json;
using namespace ptx;
using namespace ptx::lsp;
using ptx::test::Annotated;

namespace {

const char* const kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

std::vector<CodeLens> lensesOf(const std::string& text, const std::optional<std::string>& targetOverride = std::nullopt,
                               const LintOptions& options = {}) {
  LintResult analysis = lintText(text, options);
  flow::FlowCache flows(text, analysis.module);
  std::vector<registers::RegisterEstimate> estimates = registers::estimateRegisters(text, analysis.module, flows);
  return codeLenses(text, analysis, estimates, targetOverride);
}

// A device function and a kernel that calls it, each with a body.
const std::string kTwoFunctions = std::string(kHeader) +
                                  ".func (.reg .b32 r) [[twice]](.reg .b32 a)\n{\n\tadd.s32 r, a, a;\n\tret;\n}\n"
                                  ".visible .entry [[kernel]](.param .u64 out)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
                                  "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n"
                                  "\tcall (%r2), twice, (%r1);\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n";

}  // namespace

TEST_CASE("Each function with a body gets one lens on its name that opens its register report", "[codelens]") {
  Annotated source(kTwoFunctions);
  std::vector<CodeLens> lenses = lensesOf(source.text());
  REQUIRE(lenses.size() == 2);
  CHECK(lenses[0].range == source.ranges()[0]);
  CHECK(lenses[0].functionName == "twice");
  CHECK(lenses[1].range == source.ranges()[1]);
  CHECK(lenses[1].functionName == "kernel");
  for (const CodeLens& lens : lenses) CHECK(lens.command == kShowRegisterReportCommand);
}

TEST_CASE("A lens title gives the estimated registers, and a kernel's the occupancy on the target", "[codelens]") {
  Annotated source(kTwoFunctions);
  std::vector<CodeLens> lenses = lensesOf(source.text());
  REQUIRE(lenses.size() == 2);
  // A device function has no occupancy of its own: it runs inside some kernel.
  CHECK_THAT(lenses[0].title, Catch::Matches("\u2248 [0-9]+ registers \\([0-9]+\u2013[0-9]+\\)"));
  CHECK_THAT(lenses[1].title, Catch::Matches("\u2248 [0-9]+ registers \\([0-9]+\u2013[0-9]+\\) \u00b7 [0-9]+% occupancy on sm_80"));
}

TEST_CASE("A lens reports the occupancy on the target the settings choose over .target", "[codelens]") {
  Annotated source(kTwoFunctions);
  std::vector<CodeLens> lenses = lensesOf(source.text(), std::string("sm_90"));
  REQUIRE(lenses.size() == 2);
  CHECK_THAT(lenses[1].title, Catch::EndsWith("occupancy on sm_90"));
}

TEST_CASE("A prototype without a body gets no lens", "[codelens]") {
  std::string text = std::string(kHeader) + ".extern .func (.reg .b32 r) external(.reg .b32 a);\n" +
                     ".visible .entry k()\n{\n\tret;\n}\n";
  std::vector<CodeLens> lenses = lensesOf(text);
  REQUIRE(lenses.size() == 1);
  CHECK(lenses[0].functionName == "k");
}

TEST_CASE("A function with a syntax error gets no lens", "[codelens]") {
  std::string text = std::string(kHeader) + ".visible .entry broken()\n{\n\tadd.s32 %r1, ;\n\tret;\n}\n" +
                     ".visible .entry fine()\n{\n\tret;\n}\n";
  std::vector<CodeLens> lenses = lensesOf(text);
  REQUIRE(lenses.size() == 1);
  CHECK(lenses[0].functionName == "fine");
}

TEST_CASE("A text too large to analyze gets no lenses", "[codelens]") {
  Annotated source(kTwoFunctions);
  LintOptions options;
  options.maxTextBytes = 64;
  CHECK(lensesOf(source.text(), std::nullopt, options).empty());
  CHECK(lensesOf(source.text()).size() == 2);
}

TEST_CASE("The server sends each lens with its title, the report command and the document and function",
          "[codelens][server]") {
  Annotated source(kTwoFunctions);
  ptx::test::TestClient client;
  client.initialize();
  client.open("file:///lens.ptx", source.text());
  client.request(2, "textDocument/codeLens", {{"textDocument", {{"uri", "file:///lens.ptx"}}}});
  json lenses = client.reply(2)["result"];
  std::vector<CodeLens> expected = lensesOf(source.text());
  REQUIRE(lenses.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("lens " << i);
    CHECK(lenses[i]["command"]["title"] == expected[i].title);
    CHECK(lenses[i]["command"]["command"] == "ptxls.showRegisterReport");
    CHECK(lenses[i]["command"]["arguments"] == json::array({"file:///lens.ptx", expected[i].functionName}));
  }
  // Line 8 (0-based) declares the kernel: `.visible .entry kernel(...)`.
  CHECK(lenses[1]["range"]["start"] == json({{"line", 8}, {"character", 16}}));
  CHECK(lenses[1]["range"]["end"] == json({{"line", 8}, {"character", 22}}));
}

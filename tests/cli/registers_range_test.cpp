// ptxlint --report registers: each function's calibrated range (registers/EstimateRange.h) in
// the JSON (`registers_range`, docs/registers.md) and in the text summary line.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>

#include "TestSupport.h"

namespace fs = std::filesystem;

namespace {

// A kernel calling a device function: both appear in the report.
constexpr const char* kModule = R"(.version 8.0
.target sm_80
.address_size 64
.func (.reg .u32 out) twice(.reg .u32 in)
{
  add.u32 out, in, in;
  ret;
}
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1];
  call (%r2), twice, (%r1);
  st.global.u32 [%rd1], %r2;
  ret;
}
)";

}  // namespace

TEST_CASE("ptxlint --report registers gives each function's registers_range", "[cli][range]") {
  fs::path file = fs::temp_directory_path() / ("ptxlint-range-" + std::to_string(::getpid()) + ".ptx");
  std::ofstream(file) << kModule;
  std::string output;
  int status = ptx::test::runCommand(std::string(PTXLINT_PATH) + " --report registers --format json " + file.string(),
                                     output);
  CHECK(status == 0);
  nlohmann::json document = nlohmann::json::parse(output);
  const nlohmann::json& functions = document["files"][0]["functions"];
  REQUIRE(functions.size() == 2);
  for (const nlohmann::json& function : functions) {
    INFO(function.dump());
    const nlohmann::json& range = function["registers_range"];
    REQUIRE(range.is_array());
    REQUIRE(range.size() == 2);
    REQUIRE(range[0].is_number_unsigned());
    REQUIRE(range[1].is_number_unsigned());
    CHECK(range[0].get<unsigned>() >= 1);
    CHECK(range[0].get<unsigned>() <= function["registers"].get<unsigned>());
    CHECK(function["registers"].get<unsigned>() <= range[1].get<unsigned>());
    CHECK(range[1].get<unsigned>() <= 255);
  }
  // The text report's summary line shows the same range.
  std::string text;
  ptx::test::runCommand(std::string(PTXLINT_PATH) + " --report registers " + file.string(), text);
  const nlohmann::json& kernel = functions[1];
  CHECK(kernel["name"] == "k");
  std::string summary = "~ " + std::to_string(kernel["registers"].get<unsigned>()) + " registers (" +
                        std::to_string(kernel["registers_range"][0].get<unsigned>()) + "-" +
                        std::to_string(kernel["registers_range"][1].get<unsigned>()) + ") - ";
  CHECK(text.find(summary) != std::string::npos);
  fs::remove(file);
}

// The `cuda.arch` setting: a list of nvcc -arch names, merged key by key like the other settings.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "Settings.h"
#include "cuda/DevicePasses.h"

using namespace ptx;

TEST_CASE("cuda.arch takes nvcc's -arch names, reports the ones nvcc rejects and keeps the rest", "[settings][cuda]") {
  config::Settings settings;
  CHECK(settings.cudaArch.empty());
  CHECK(config::mergeSettings(settings, nlohmann::json::parse(R"({"cuda": {"arch": ["sm_90a", "sm_100a"]}})")).empty());
  CHECK(settings.cudaArch == std::vector<std::string>{"sm_90a", "sm_100a"});
  cuda::PassList passes = cuda::passesForArchNames(settings.cudaArch, ".ptxls.json cuda.arch ");
  REQUIRE(passes.passes.size() == 4);
  CHECK(passes.passes[1].describe() == "compute_90a from .ptxls.json cuda.arch sm_90a");

  // A later source replaces the list; other keys are untouched.
  CHECK(config::mergeSettings(settings, nlohmann::json::parse(R"({"ptxls": {"target": "sm_80"}})")).empty());
  CHECK(settings.cudaArch.size() == 2);
  std::vector<std::string> problems =
      config::mergeSettings(settings, nlohmann::json::parse(R"({"cuda": {"arch": ["sm_80", "sm_70", 3, "native"]}})"));
  CHECK(settings.cudaArch == std::vector<std::string>{"sm_80"});
  REQUIRE(problems.size() == 3);
  CHECK_THAT(problems[0], Catch::StartsWith("'cuda.arch': unsupported GPU architecture 'sm_70'"));
  CHECK(problems[1] == "'cuda.arch' must list architecture names such as \"sm_90a\"");
  CHECK_THAT(problems[2], Catch::StartsWith("'cuda.arch': 'native' means the GPU of the machine that builds"));

  CHECK(config::mergeSettings(settings, nlohmann::json::parse(R"({"cuda": {"arch": []}})")).empty());
  CHECK(settings.cudaArch.empty());
  CHECK(config::mergeSettings(settings, nlohmann::json::parse(R"({"cuda": "sm_90a"})")) ==
        std::vector<std::string>{"'cuda' must be an object"});
  CHECK(config::mergeSettings(settings, nlohmann::json::parse(R"({"cuda": {"arch": "sm_90a", "ccbin": 1}})")) ==
        std::vector<std::string>{"cuda option 'arch' is unknown or has a bad value", "cuda option 'ccbin' is unknown or has a bad value"});
  CHECK(settings.cudaArch.empty());
}

// Settings: what the editor sends in the "ptxls" section, merged key by key.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "Settings.h"

using namespace ptx;

TEST_CASE("Settings ignore the editor client's own keys and name unknown ones", "[settings]") {
  // What VS Code answers for workspace/configuration {section: "ptxls"}: the whole section,
  // the client's settings (how to start the server, tracing, format on save) included.
  auto section = nlohmann::json::parse(R"({
    "server": {"path": "/opt/ptxls", "args": []}, "trace": {"server": "verbose"}, "formatOnSave": true,
    "target": "sm_90", "rules": {"ISA010": "error"}, "bogus": 1})");
  config::Settings settings;
  std::vector<std::string> problems = config::mergeSettings(settings, section);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] == "unknown setting 'bogus'");
  CHECK(settings.target == "sm_90");
  REQUIRE(settings.rules.contains("ISA010"));
  CHECK(settings.rules.at("ISA010").severity == Severity::Error);
}

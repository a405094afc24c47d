// Settings: what the editor sends in the "ptxls" section, merged key by key, and project files
// read over it.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
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

TEST_CASE("A project file is read over the settings it starts from, and an unusable one says why", "[settings]") {
  auto folder = std::filesystem::temp_directory_path() / ("ptxls-project-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder / "deep");
  config::Settings client;
  client.target = "sm_80";
  client.rules["SEM001"].severity = Severity::Warning;
  SECTION("a usable file overrides key by key and names the keys it could not use") {
    std::ofstream(folder / ".ptxls.json") << "// comments are allowed\n{\"rules\": {\"SEM001\": \"hint\"}, \"bogus\": 1}";
    std::optional<std::filesystem::path> found = config::findProjectFile(folder / "deep" / "k.ptx");
    REQUIRE(found == folder / ".ptxls.json");
    config::ProjectSettings project = config::loadProjectFile(*found, client);
    CHECK(project.unusable.empty());
    CHECK(project.problems == std::vector<std::string>{"unknown setting 'bogus'"});
    CHECK(project.settings.target == "sm_80");
    CHECK(project.settings.rules.at("SEM001").severity == Severity::Hint);
  }
  SECTION("invalid JSON leaves the settings as they were") {
    std::ofstream(folder / ".ptxls.json") << "{\"rules\": ";
    config::ProjectSettings project = config::loadProjectFile(folder / ".ptxls.json", client);
    CHECK(project.unusable == "not valid JSON");
    CHECK(project.settings.rules.at("SEM001").severity == Severity::Warning);
  }
  SECTION("a file that is not an object, or not there, is unusable") {
    std::ofstream(folder / ".ptxls.json") << "[1, 2]";
    CHECK(config::loadProjectFile(folder / ".ptxls.json").unusable == "not a JSON object");
    CHECK(config::loadProjectFile(folder / "missing.json").unusable == "cannot open file");
  }
  std::filesystem::remove_all(folder);
}

TEST_CASE("registers.verifyWithPtxas is off by default, set by a boolean and overridden key by key", "[settings]") {
  config::Settings settings;
  CHECK_FALSE(settings.verifyWithPtxas);
  CHECK(config::mergeSettings(settings, nlohmann::json::parse(R"({"ptxls": {"registers": {"verifyWithPtxas": true}}})")).empty());
  CHECK(settings.verifyWithPtxas);
  // Other keys leave it as it was; a later source turns it off again.
  CHECK(config::mergeSettings(settings, nlohmann::json::parse(R"({"target": "sm_90"})")).empty());
  CHECK(settings.verifyWithPtxas);
  CHECK(config::mergeSettings(settings, nlohmann::json::parse(R"({"registers": {"verifyWithPtxas": false}})")).empty());
  CHECK_FALSE(settings.verifyWithPtxas);
  // Bad values and unknown options are named, and change nothing.
  CHECK(config::mergeSettings(settings, nlohmann::json::parse(R"({"registers": {"verifyWithPtxas": "yes", "bogus": 1}})")) ==
        std::vector<std::string>{"registers option 'bogus' is unknown or has a bad value",
                                 "registers option 'verifyWithPtxas' is unknown or has a bad value"});
  CHECK_FALSE(settings.verifyWithPtxas);
  CHECK(config::mergeSettings(settings, nlohmann::json::parse(R"({"registers": true})")) ==
        std::vector<std::string>{"'registers' must be an object"});
}

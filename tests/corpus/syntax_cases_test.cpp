// The syntax cases in tests/syntax_cases, whose verdicts were recorded from ptxas 13:
// every rejected case gets a syntax diagnostic on the line ptxas reports, every accepted
// case gets none.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "TestSupport.h"
#include "text/LineIndex.h"

using namespace ptx;

namespace {

// Checks that every rejected case in `folder` gets an error on ptxas's line, of `category`;
// returns how many cases there were.
std::size_t checkRejectedCases(const std::filesystem::path& folder, Category category) {
  auto expected = nlohmann::json::parse(test::readFile(folder / "expected.json"));
  for (auto& [name, verdict] : expected["cases"].items()) {
    std::string text = test::readFile(folder / name);
    auto diagnostics = test::lint(text);
    INFO(name << " (ptxas: " << verdict["ptxas_message"].get<std::string>() << ")\n"
              << test::describe(text, diagnostics));
    REQUIRE_FALSE(diagnostics.empty());
    auto ptxasLine = verdict["line"].get<std::uint32_t>();
    LineIndex index(text);
    bool onPtxasLine = false;
    for (const Diagnostic& d : diagnostics) {
      CHECK(d.category == category);
      CHECK(d.severity == Severity::Error);
      std::uint32_t first = index.lineOf(d.range.begin) + 1;
      std::uint32_t last = index.lineOf(d.range.end) + 1;
      bool here = first <= ptxasLine && ptxasLine <= last;
      onPtxasLine = onPtxasLine || here;
    }
    CHECK(onPtxasLine);
  }
  return expected["cases"].size();
}

}  // namespace

TEST_CASE("ptxas-rejected syntax cases get a syntax diagnostic on ptxas's line", "[corpus]") {
  CHECK(checkRejectedCases(test::sourceDir() / "tests/syntax_cases/rejected", Category::Syntax) >= 20);
}

TEST_CASE("The ptxas-rejected suite has at least 80 cases, each with ptxas's message", "[corpus]") {
  // The syntax cases, and the rules' cases that ptxas rejects (tests/rules/<CODE>/ptxas.json,
  // checked on ptxas's line by tests/analyzers/rule_cases_test.cpp).
  std::vector<std::filesystem::path> verdicts = {test::sourceDir() / "tests/syntax_cases/rejected/expected.json"};
  for (const auto& entry : std::filesystem::directory_iterator(test::sourceDir() / "tests/rules")) {
    if (std::filesystem::exists(entry.path() / "ptxas.json")) verdicts.push_back(entry.path() / "ptxas.json");
  }
  std::size_t cases = 0;
  for (const std::filesystem::path& file : verdicts) {
    auto expected = nlohmann::json::parse(test::readFile(file));
    for (auto& [name, verdict] : expected["cases"].items()) {
      INFO(file.string() << ": " << name);
      CHECK(std::filesystem::exists(file.parent_path() / name));
      CHECK(!verdict["ptxas_message"].get<std::string>().empty());
      ++cases;
    }
  }
  CHECK(cases >= 80);
}

TEST_CASE("ptxas-accepted syntax cases get no diagnostics", "[corpus]") {
  auto folder = test::sourceDir() / "tests/syntax_cases/accepted";
  auto expected = nlohmann::json::parse(test::readFile(folder / "expected.json"));
  REQUIRE(expected["cases"].size() >= 15);
  for (auto& [name, verdict] : expected["cases"].items()) {
    std::string text = test::readFile(folder / name);
    auto diagnostics = test::lint(text);
    INFO(name << "\n" << test::describe(text, diagnostics));
    CHECK(diagnostics.empty());
  }
}

// The syntax cases in tests/syntax_cases, whose verdicts were recorded from ptxas 13:
// every rejected case gets a syntax diagnostic on the line ptxas reports, every accepted
// case gets none.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "TestSupport.h"
#include "text/LineIndex.h"

using namespace ptx;

namespace {

// Checks that every rejected case in `folder` gets an error on ptxas's line, of `category`
// when one is given; returns how many cases there were.
std::size_t checkRejectedCases(const std::filesystem::path& folder,
                               std::optional<Category> category) {
  auto expected = nlohmann::json::parse(test::readFile(folder / "expected.json"));
  for (auto& [name, verdict] : expected["cases"].items()) {
    std::string text = test::readFile(folder / name);
    auto diagnostics = test::lint(text);
    INFO(name << " (ptxas: " << verdict["ptxas_message"].get<std::string>() << ")\n"
              << test::describe(text, diagnostics));
    REQUIRE_FALSE(diagnostics.empty());
    auto ptxasLine = verdict["line"].get<std::uint32_t>();
    LineIndex index(text);
    // Cases may name the rule that must fire on ptxas's line.
    std::string rule = verdict.contains("rule") ? verdict["rule"].get<std::string>() : std::string();
    bool onPtxasLine = false;
    for (const Diagnostic& d : diagnostics) {
      if (category) CHECK(d.category == *category);
      CHECK(d.severity == Severity::Error);
      std::uint32_t first = index.lineOf(d.range.begin) + 1;
      std::uint32_t last = index.lineOf(d.range.end) + 1;
      bool here = first <= ptxasLine && ptxasLine <= last;
      onPtxasLine = onPtxasLine || (here && (rule.empty() || d.rule == rule));
    }
    CHECK(onPtxasLine);
  }
  return expected["cases"].size();
}

}  // namespace

TEST_CASE("ptxas-rejected syntax cases get a syntax diagnostic on ptxas's line", "[corpus]") {
  CHECK(checkRejectedCases(test::sourceDir() / "tests/syntax_cases/rejected", Category::Syntax) >= 20);
}

TEST_CASE("ptxas-rejected semantic cases get an error on ptxas's line", "[corpus]") {
  CHECK(checkRejectedCases(test::sourceDir() / "tests/semantic_cases/rejected", std::nullopt) >= 60);
}

TEST_CASE("The ptxas-rejected suite has at least 80 cases, each with ptxas's message", "[corpus]") {
  std::size_t cases = 0;
  for (const char* folder : {"tests/syntax_cases/rejected", "tests/semantic_cases/rejected"}) {
    auto expected = nlohmann::json::parse(test::readFile(test::sourceDir() / folder / "expected.json"));
    for (auto& [name, verdict] : expected["cases"].items()) {
      INFO(folder << "/" << name);
      CHECK(std::filesystem::exists(test::sourceDir() / folder / name));
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

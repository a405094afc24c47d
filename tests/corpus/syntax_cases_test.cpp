// The syntax cases in tests/syntax_cases, whose verdicts were recorded from ptxas 13:
// every rejected case gets a syntax diagnostic on the line ptxas reports, every accepted
// case gets none.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "TestSupport.h"
#include "text/LineIndex.h"

using namespace ptx;

TEST_CASE("ptxas-rejected syntax cases get a syntax diagnostic on ptxas's line", "[corpus]") {
  auto folder = test::sourceDir() / "tests/syntax_cases/rejected";
  auto expected = nlohmann::json::parse(test::readFile(folder / "expected.json"));
  REQUIRE(expected["cases"].size() >= 20);
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
      CHECK(d.category == Category::Syntax);
      CHECK(d.severity == Severity::Error);
      std::uint32_t first = index.lineOf(d.range.begin) + 1;
      std::uint32_t last = index.lineOf(d.range.end) + 1;
      onPtxasLine = onPtxasLine || (first <= ptxasLine && ptxasLine <= last);
    }
    CHECK(onPtxasLine);
  }
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

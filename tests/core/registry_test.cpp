// Registry: codes are unique, sorted, and every code the syntax layer reports is registered.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "Registry.h"
#include "TestSupport.h"

using namespace ptx;

TEST_CASE("Rule codes are unique and sorted", "[registry]") {
  auto rules = allRules();
  REQUIRE(rules.size() >= 8);
  for (std::size_t i = 1; i < rules.size(); ++i) {
    INFO(rules[i].code);
    CHECK(rules[i - 1].code < rules[i].code);
    CHECK(rules[i - 1].name != rules[i].name);
  }
  REQUIRE(findRule("SYN001") != nullptr);
  CHECK(findRule("SYN001")->name == "unexpected-token");
  CHECK(findRule("missing-token")->code == "SYN002");
  CHECK(findRule("NOPE999") == nullptr);
}

TEST_CASE("Every reported rule is in the registry with the reported category", "[registry]") {
  const char* inputs[] = {
      "\xEF\xBB\xBF.version 8.0\n",
      "#include <x>\n.version 8.0\n",
      ".version 8.0\n.target sm_80\n.entry k() { .foo 1; @ bra $x; mov.u32 %r1, %r2 }\n",
      "a\0b",
  };
  for (const char* input : inputs) {
    for (const Diagnostic& d : test::lint(input)) {
      const RuleMeta* rule = findRule(d.rule);
      INFO(d.rule << ": " << d.message);
      REQUIRE(rule != nullptr);
      CHECK(rule->category == d.category);
    }
  }
}

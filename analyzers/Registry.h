// Registry: every rule's identity (code, name, category, default severity, summary), expanded
// from Rules.def, the one place that names a rule.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string_view>

#include "diag/Diagnostic.h"

namespace ptx {

struct RuleMeta {
  std::string_view code;
  std::string_view name;
  Category category;
  Severity defaultSeverity;
  std::string_view summary;
};

// Every rule, sorted by code.
inline constexpr RuleMeta kRuleTable[] = {
#define PTX_RULE(code, name, category, severity, check, reads, when, summary) \
  RuleMeta{#code, name, Category::category, Severity::severity, summary},
#define PTX_RULE_WITHOUT_CHECK(code, name, category, severity, summary) \
  RuleMeta{#code, name, Category::category, Severity::severity, summary},
#include "Rules.def"
};

std::span<const RuleMeta> allRules();

// The rule with `code` ("SYN001") or `name` ("unexpected-token"); null when unknown.
const RuleMeta* findRule(std::string_view codeOrName);

// A rule code checked against the registry when the program is compiled: a rule reports with
// `context.report("ALN002", ...)`, and a code missing from Rules.def does not compile.
class RuleCode {
 public:
  // Implicit, so that a literal converts where a RuleCode is expected.
  consteval RuleCode(const char* code) : index_(indexOf(code)) {}

  const RuleMeta& meta() const { return kRuleTable[index_]; }

 private:
  static consteval std::uint16_t indexOf(std::string_view code) {
    for (std::size_t i = 0; i < std::size(kRuleTable); ++i) {
      if (kRuleTable[i].code == code) return static_cast<std::uint16_t>(i);
    }
    throw "not a rule code of Rules.def";  // Reached only while compiling: an unknown code is an error.
  }

  std::uint16_t index_;
};

}  // namespace ptx

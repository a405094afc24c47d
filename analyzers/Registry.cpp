// Registry: expands Rules.def into a sorted table.
#include "Registry.h"

#include <algorithm>
#include <array>

namespace ptx {
namespace {

constexpr std::array kRules = {
#define PTX_RULE(code, name, category, severity, summary) \
  RuleMeta{#code, name, Category::category, Severity::severity, summary},
#include "Rules.def"
#undef PTX_RULE
};

}  // namespace

std::span<const RuleMeta> allRules() { return kRules; }

const RuleMeta* findRule(std::string_view codeOrName) {
  auto it = std::find_if(kRules.begin(), kRules.end(), [&](const RuleMeta& rule) {
    return rule.code == codeOrName || rule.name == codeOrName;
  });
  return it == kRules.end() ? nullptr : &*it;
}

}  // namespace ptx

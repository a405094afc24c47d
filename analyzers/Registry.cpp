// Registry: lookups over the table Registry.h expands from Rules.def.
#include "Registry.h"

#include <algorithm>

namespace ptx {

std::span<const RuleMeta> allRules() { return kRuleTable; }

const RuleMeta* findRule(std::string_view codeOrName) {
  auto it = std::find_if(std::begin(kRuleTable), std::end(kRuleTable), [&](const RuleMeta& rule) {
    return rule.code == codeOrName || rule.name == codeOrName;
  });
  return it == std::end(kRuleTable) ? nullptr : &*it;
}

}  // namespace ptx

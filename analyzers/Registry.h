// Registry: metadata of every rule, generated from Rules.def.
#pragma once

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

std::span<const RuleMeta> allRules();

// The rule with `code` ("SYN001") or `name` ("unexpected-token"); null when unknown.
const RuleMeta* findRule(std::string_view codeOrName);

}  // namespace ptx

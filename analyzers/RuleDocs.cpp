// RuleDocs: the table generated at build time by scripts/gen-rule-docs.py --include.
#include "RuleDocs.h"

#include <utility>

namespace ptx {
namespace {

constexpr std::pair<std::string_view, std::string_view> kRuleDocs[] = {
#include "RuleDocs.inc"
};

}  // namespace

std::string_view ruleDocumentation(std::string_view code) {
  for (const auto& [rule, documentation] : kRuleDocs) {
    if (rule == code) return documentation;
  }
  return {};
}

}  // namespace ptx

// ISA010 vector-type-order (warning)
//
// What it does: reports a vector modifier (.v2, .v4, .v8) that is not immediately followed
// by the element type, e.g. `ld.global.u32.v2` or `ld.global.v2.nc.u32`.
//
// Why is this bad: the PTX ISA writes `.vN.type` as one unit; ptxas accepts other orders but
// warns "Vector Type not specified properly", and other PTX consumers may reject them.
//
// Example:
//     st.global.u32.v2 [%rd1], {%r1, %r2};
//
// Use instead:
//     st.global.v2.u32 [%rd1], {%r1, %r2};
//
// Fix: move the `.vN` modifier to just before the element type.
//
// References: PTX ISA §5.4.4 (vectors) and the syntax of ld, st and the other vector
// instructions in chapter 9.
#include <optional>
#include <string>
#include <vector>

#include "RuleContext.h"
#include "isa/IsaReference.h"

namespace ptx {
namespace {

// A type spelling: a known type, or one shaped like a type (`.e5m2x4`, `.ue8m0x2`), so that
// newer packed types never make this warning fire.
bool isTypeSpelling(std::string_view word) {
  if (findType(word) != nullptr) return true;
  std::size_t i = 1;
  while (i < word.size() && word[i] >= 'a' && word[i] <= 'z') ++i;
  if (i == 1 || i == word.size() || word[i] < '0' || word[i] > '9') return false;
  for (; i < word.size(); ++i) {
    char c = word[i];
    if (!((c >= '0' && c <= '9') || c == 'm' || c == 'x')) return false;
  }
  return true;
}

}  // namespace

void checkVectorTypeOrder(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t index = 0; index < module.instructions.size(); ++index) {
    const InstructionSite& site = module.instructions[index];
    // Only instructions that matched a form: anything else already has an error.
    if (site.inDamagedCode || context.shapes.matchesOf(index).empty()) continue;
    const InstructionFacts& facts = module.factsOf(site);
    for (std::uint32_t m = 0; m < site.modifierCount; ++m) {
      if (infoOf(facts.modifiers[m]).vectorWidth == 0) continue;
      ByteRange range = module.modifiers[site.firstModifier + m];
      std::string_view modifier = context.textOf(range);
      bool typeFollows = m + 1 < site.modifierCount &&
                         isTypeSpelling(context.textOf(module.modifiers[site.firstModifier + m + 1]));
      if (typeFollows) continue;
      std::string message(1, '\'');
      message += modifier;
      message += "' should come right before the element type (ptxas warns: Vector Type not specified properly)";
      context.report("ISA010", range, std::move(message));
      // The element type: the first type after `.vN`, else the last one before it.
      std::optional<ByteRange> type;
      for (std::uint32_t t = 0; t < site.modifierCount; ++t) {
        ByteRange candidate = module.modifiers[site.firstModifier + t];
        if (t == m || !isTypeSpelling(context.textOf(candidate))) continue;
        if (t < m || !type || type->begin < range.begin) type = candidate;
        if (t > m) break;
      }
      if (type) {
        std::string moved(modifier);
        context.attachFix(concat({"Move '", moved, "' before '", context.textOf(*type), "'"}),
                          type->begin < range.begin
                              ? std::vector<FixEdit>{{{type->begin, type->begin}, moved}, {range, ""}}
                              : std::vector<FixEdit>{{range, ""}, {{type->begin, type->begin}, moved}},
                          /*isPreferred=*/true);
      }
    }
  }
}

}  // namespace ptx

// ISA003 requires-newer-target
//
// What it does: reports an instruction whose family needs a newer GPU architecture than the
// module's `.target` (per family, against the oldest architecture any form runs on, comparing
// the number only), or whose form (from the instruction table) needs a target the module's
// does not satisfy — including the arch-specific `sm_90a` and family-specific `sm_100f` ones.
//
// Why is this bad: ptxas stops with "requires .target sm_XY or higher".
//
// Example:
//     .target sm_80
//     ...
//     elect.sync %r1|%p1, 0xffffffff;   // elect needs sm_90
//
// Use instead:
//     .target sm_90
//
// Fix: change the `.target` to the one the instruction needs (never to an older number),
// raising the `.version` too when that target needs a newer PTX ISA.
//
// References: the "Target ISA Notes" of each instruction in PTX ISA chapter 9.
#include <algorithm>
#include <optional>
#include <string>

#include "RuleContext.h"
#include "isa/InstructionForms.h"
#include "isa/IsaReference.h"

namespace ptx {
namespace {

// The first PTX ISA version that knows a target (the PTX ISA release notes; the sm_75 and
// newer entries agree with ptxas 13). Nullopt for a target not listed.
std::optional<PtxVersion> minimumPtxForTarget(std::string_view target) {
  struct Entry {
    std::string_view target;
    PtxVersion version;
  };
  static constexpr Entry kTargets[] = {
      {"sm_50", {4, 0}},   {"sm_52", {4, 1}},   {"sm_53", {4, 2}},   {"sm_60", {5, 0}},   {"sm_61", {5, 0}},
      {"sm_62", {5, 0}},   {"sm_70", {6, 0}},   {"sm_72", {6, 1}},   {"sm_75", {6, 3}},   {"sm_80", {7, 0}},
      {"sm_86", {7, 1}},   {"sm_87", {7, 4}},   {"sm_89", {7, 8}},   {"sm_90", {7, 8}},   {"sm_90a", {8, 0}},
      {"sm_100", {8, 6}},  {"sm_100a", {8, 6}}, {"sm_100f", {8, 8}}, {"sm_101", {8, 6}},  {"sm_101a", {8, 6}},
      {"sm_103", {8, 8}},  {"sm_103a", {8, 8}}, {"sm_103f", {8, 8}}, {"sm_110", {9, 0}},  {"sm_110a", {9, 0}},
      {"sm_110f", {9, 0}}, {"sm_120", {8, 7}},  {"sm_120a", {8, 7}}, {"sm_120f", {8, 8}}, {"sm_121", {8, 8}},
      {"sm_121a", {8, 8}}, {"sm_121f", {8, 8}},
  };
  for (const Entry& entry : kTargets) {
    if (entry.target == target) return entry.version;
  }
  return std::nullopt;
}

// Offers to replace the module's target with `needed`, when that is not a step back.
void attachChangeTarget(const RuleContext& context, const std::pair<std::string, ByteRange>& targetEntry,
                        const TargetArch& current, std::string_view needed) {
  TargetArch wanted;
  if (!parseTargetArch(needed, wanted) || wanted.number < current.number) return;
  // Under a target override the entry's range is not the spelled target: nothing to edit.
  if (context.textOf(targetEntry.second) != targetEntry.first) return;
  std::vector<FixEdit> edits{{targetEntry.second, std::string(needed)}};
  std::string title = concat({"Change .target to ", needed});
  const ModuleHeader& header = context.module.header;
  auto version = minimumPtxForTarget(needed);
  if (version && header.version && PtxVersion{header.versionMajor, header.versionMinor} < *version) {
    std::string_view directive = context.textOf(*header.version);
    std::size_t begin = directive.find_first_of("0123456789");
    if (begin == std::string_view::npos) return;
    std::size_t end = std::min(directive.find_first_not_of("0123456789.", begin), directive.size());
    std::string number = concat({std::to_string(version->major), ".", std::to_string(version->minor)});
    edits.push_back({{header.version->begin + static_cast<std::uint32_t>(begin),
                      header.version->begin + static_cast<std::uint32_t>(end)},
                     number});
    title += " and .version to " + number;
  }
  // The version edit comes first in the text.
  std::sort(edits.begin(), edits.end(), [](const FixEdit& a, const FixEdit& b) { return a.range.begin < b.range.begin; });
  context.attachFix(std::move(title), std::move(edits), /*isPreferred=*/true);
}

// The form-level check: no form the modifiers fit runs on the module's target.
void checkForm(const RuleContext& context, std::size_t index, const TargetArch& target,
               const std::pair<std::string, ByteRange>& targetEntry) {
  const std::vector<FormMatch>& matches = context.shapes.matchesOf(index);
  if (matches.empty()) return;
  for (const FormMatch& match : matches) {
    if (match.form->targets.empty()) return;
    for (const std::string& requirement : match.form->targets) {
      if (targetSatisfies(target, requirement)) return;
    }
  }
  const InstructionSite& site = context.module.instructions[index];
  ByteRange range = context.module.spellingOf(site);
  std::string message(1, '\'');
  message += context.textOf(range);
  message += "' requires .target ";
  const auto& targets = matches.front().form->targets;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (i > 0) message += i + 1 == targets.size() ? " or " : ", ";
    message += targets[i];
  }
  message += "; the module targets ";
  message += targetEntry.first;
  context.report("ISA003", range, std::move(message), {{targetEntry.second, "the module's .target"}});
  if (!targets.empty()) attachChangeTarget(context, targetEntry, target, targets.front());
}

}  // namespace

void checkRequiresNewerTarget(const RuleContext& context) {
  const ModuleHeader& header = context.module.header;
  TargetArch target;
  const std::pair<std::string, ByteRange>* targetEntry = nullptr;
  for (const auto& entry : header.targets) {
    if (parseTargetArch(entry.first, target)) {
      targetEntry = &entry;
      break;
    }
  }
  if (targetEntry == nullptr) return;
  const auto& instructions = context.module.instructions;
  for (std::size_t index = 0; index < instructions.size(); ++index) {
    const InstructionSite& site = instructions[index];
    if (site.inDamagedCode) continue;
    const OpcodeInfo* info = context.module.factsOf(site).opcode;
    TargetArch needed;
    if (info == nullptr || !parseTargetArch(info->minTarget, needed)) continue;
    if (needed.number <= target.number) {
      checkForm(context, index, target, *targetEntry);
      continue;
    }
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on "'" + string.
    std::string message(1, '\'');
    message += info->name;
    message += "' requires .target ";
    message += info->minTarget;
    message += " or higher; the module targets ";
    message += targetEntry->first;
    context.report("ISA003", site.opcode, std::move(message),
                   {{targetEntry->second, "the module's .target"}});
    attachChangeTarget(context, *targetEntry, target, info->minTarget);
  }
}

}  // namespace ptx

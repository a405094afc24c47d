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
// References: the "Target ISA Notes" of each instruction in PTX ISA chapter 9.
#include <string>

#include "RuleContext.h"
#include "isa/InstructionForms.h"
#include "isa/IsaReference.h"

namespace ptx {
namespace {

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
  context.report("ISA003", Category::Isa, range, std::move(message), {{targetEntry.second, "the module's .target"}});
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
    const OpcodeInfo* info = findOpcode(context.textOf(site.opcode));
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
    context.report("ISA003", Category::Isa, site.opcode, std::move(message),
                   {{targetEntry->second, "the module's .target"}});
  }
}

}  // namespace ptx

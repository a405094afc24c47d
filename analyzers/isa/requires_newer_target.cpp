// ISA003 requires-newer-target
//
// What it does: reports an instruction whose family needs a newer GPU architecture than the
// module's `.target` (checked per family against the oldest architecture any form runs on;
// only the architecture number is compared, so `a`/`f` variants are never flagged here).
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
#include "isa/IsaReference.h"

namespace ptx {

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
  for (const InstructionSite& site : context.module.instructions) {
    if (site.inDamagedCode) continue;
    const OpcodeInfo* info = findOpcode(context.textOf(site.opcode));
    TargetArch needed;
    if (info == nullptr || !parseTargetArch(info->minTarget, needed) || needed.number <= target.number) {
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

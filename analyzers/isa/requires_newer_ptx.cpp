// ISA002 requires-newer-ptx
//
// What it does: reports an instruction whose family did not exist yet in the module's
// `.version` of the PTX ISA (checked per family, against the earliest version in which any
// of its forms appeared, so it never flags a form that the version supports).
//
// Why is this bad: ptxas stops with "requires PTX ISA .version X.Y or later".
//
// Example:
//     .version 6.5
//     ...
//     redux.sync.add.u32 %r1, %r2, 0xffffffff;   // redux needs PTX ISA 7.0
//
// Use instead:
//     .version 7.0
//
// References: the "PTX ISA Notes" of each instruction in PTX ISA chapter 9.
#include <string>

#include "RuleContext.h"
#include "isa/IsaReference.h"

namespace ptx {

void checkRequiresNewerPtx(const RuleContext& context) {
  const ModuleHeader& header = context.module.header;
  if (!header.version) return;
  PtxVersion declared{header.versionMajor, header.versionMinor};
  for (const InstructionSite& site : context.module.instructions) {
    if (site.inDamagedCode) continue;
    const OpcodeInfo* info = findOpcode(context.textOf(site.opcode));
    if (info == nullptr || !(declared < info->minPtx)) continue;
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on "'" + string.
    std::string message(1, '\'');
    message += info->name;
    message += "' requires PTX ISA ";
    message += std::to_string(info->minPtx.major) + "." + std::to_string(info->minPtx.minor);
    message += " or later; the module declares .version ";
    message += std::to_string(declared.major) + "." + std::to_string(declared.minor);
    context.report("ISA002", Category::Isa, site.opcode, std::move(message),
                   {{*header.version, "the module's .version"}});
  }
}

}  // namespace ptx

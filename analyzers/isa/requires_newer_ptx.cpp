// ISA002 requires-newer-ptx
//
// What it does: reports an instruction whose family did not exist yet in the module's
// `.version` of the PTX ISA, or whose form (its modifiers and types, from the instruction
// table) came later than that version. Only when every form the modifiers fit is too new.
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
// Fix: raise the `.version` to the one the instruction needs.
//
// References: the "PTX ISA Notes" of each instruction in PTX ISA chapter 9.
#include <optional>
#include <string>

#include "RuleContext.h"
#include "isa/IsaReference.h"

namespace ptx {
namespace {

std::string versionText(PtxVersion version) {
  return std::to_string(version.major) + "." + std::to_string(version.minor);
}

// The `X.Y` of the module's `.version` directive, or nullopt when it cannot be found.
std::optional<ByteRange> versionNumberRange(const RuleContext& context) {
  ByteRange directive = *context.module.header.version;
  std::string_view spelled = context.textOf(directive);
  std::size_t begin = spelled.find_first_of("0123456789");
  if (begin == std::string_view::npos) return std::nullopt;
  std::size_t end = spelled.find_first_not_of("0123456789.", begin);
  if (end == std::string_view::npos) end = spelled.size();
  return ByteRange{directive.begin + static_cast<std::uint32_t>(begin), directive.begin + static_cast<std::uint32_t>(end)};
}

void attachRaiseVersion(const RuleContext& context, PtxVersion needed) {
  auto number = versionNumberRange(context);
  if (!number) return;
  std::string version = versionText(needed);
  context.attachFix(concat({"Raise .version to ", version}), {{*number, version}}, /*isPreferred=*/true);
}

// The form-level check: the modifiers fit only forms newer than the declared version.
void checkForm(const RuleContext& context, std::size_t index, PtxVersion declared) {
  const std::vector<FormMatch>& matches = context.shapes.matchesOf(index);
  if (matches.empty()) return;
  std::optional<PtxVersion> oldest;
  for (const FormMatch& match : matches) {
    PtxVersion needed = match.form->minPtx.value_or(PtxVersion{});
    if (!oldest || needed < *oldest) oldest = needed;
  }
  if (!(declared < *oldest)) return;
  const InstructionSite& site = context.module.instructions[index];
  ByteRange range = context.module.spellingOf(site);
  std::string message(1, '\'');
  message += context.textOf(range);
  message += "' requires PTX ISA ";
  message += versionText(*oldest);
  message += " or later; the module declares .version ";
  message += versionText(declared);
  context.report("ISA002", range, std::move(message),
                 {{*context.module.header.version, "the module's .version"}});
  attachRaiseVersion(context, *oldest);
}

}  // namespace

void checkRequiresNewerPtx(const RuleContext& context) {
  const ModuleHeader& header = context.module.header;
  if (!header.version) return;
  PtxVersion declared{header.versionMajor, header.versionMinor};
  const auto& instructions = context.module.instructions;
  for (std::size_t index = 0; index < instructions.size(); ++index) {
    const InstructionSite& site = instructions[index];
    if (site.inDamagedCode) continue;
    const OpcodeInfo* info = context.module.factsOf(site).opcode;
    if (info == nullptr) continue;
    if (!(declared < info->minPtx)) {
      checkForm(context, index, declared);
      continue;
    }
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on "'" + string.
    std::string message(1, '\'');
    message += info->name;
    message += "' requires PTX ISA ";
    message += std::to_string(info->minPtx.major) + "." + std::to_string(info->minPtx.minor);
    message += " or later; the module declares .version ";
    message += std::to_string(declared.major) + "." + std::to_string(declared.minor);
    context.report("ISA002", site.opcode, std::move(message),
                   {{*header.version, "the module's .version"}});
    attachRaiseVersion(context, info->minPtx);
  }
}

}  // namespace ptx

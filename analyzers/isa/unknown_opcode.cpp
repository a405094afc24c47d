// ISA001 unknown-opcode
//
// What it does: reports an instruction whose opcode is none of the instruction names PTX
// reserves (Table 2 of the PTX ISA, 135 names; core/isa/Opcodes.def), with the closest name
// as a suggestion.
//
// Why is this bad: ptxas stops with "Not a name of any known instruction".
//
// Example:
//     movv.b32 %r1, 1;
//
// Use instead:
//     mov.b32 %r1, 1;
//
// Fix: replace the opcode with the lowercase spelling or the suggestion.
//
// References: PTX ISA §4.3.2 (instruction statements, reserved opcodes).
#include <string>

#include "RuleContext.h"
#include "isa/IsaReference.h"

namespace ptx {
void checkUnknownOpcode(const RuleContext& context) {
  for (const InstructionSite& site : context.module.instructions) {
    if (site.inDamagedCode) continue;
    std::string_view opcode = context.textOf(site.opcode);
    bool letter = !opcode.empty() && ((opcode[0] >= 'a' && opcode[0] <= 'z') ||
                                      (opcode[0] >= 'A' && opcode[0] <= 'Z'));
    if (!letter || context.module.factsOf(site).opcode != nullptr) continue;  // SYN008 reports non-letters.
    std::string message = "unknown instruction '" + std::string(opcode) + "'";
    std::string lower(opcode);
    for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    std::string replacement;
    if (findOpcode(lower) != nullptr) {
      message += "; PTX opcodes are lowercase: did you mean '" + lower + "'?";
      replacement = lower;
    } else {
      std::vector<std::string_view> candidates;
      for (const OpcodeInfo& info : allOpcodes()) candidates.push_back(info.name);
      std::string_view suggestion = closestMatch(opcode, candidates);
      if (!suggestion.empty()) message += "; did you mean '" + std::string(suggestion) + "'?";
      replacement = suggestion;
    }
    context.report("ISA001", site.opcode, std::move(message));
    if (!replacement.empty()) {
      context.attachFix(concat({"Replace '", opcode, "' with '", replacement, "'"}),
                        {{site.opcode, replacement}}, /*isPreferred=*/true);
    }
  }
}

}  // namespace ptx

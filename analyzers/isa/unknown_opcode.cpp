// ISA001 unknown-opcode
//
// What it does: reports an instruction whose opcode is none of the instruction names PTX
// reserves (Table 2 of the PTX ISA, 135 names), with the closest name as a suggestion.
//
// Why is this bad: ptxas stops with "Not a name of any known instruction".
//
// Example:
//     movv.b32 %r1, 1;
//
// Use instead:
//     mov.b32 %r1, 1;
//
// References: PTX ISA §4.3.2 (instruction statements, reserved opcodes).
#include <algorithm>
#include <array>
#include <string>

#include "RuleContext.h"

namespace ptx {
namespace {

// PTX ISA 9.x, Table 2: every instruction keyword.
constexpr std::array<std::string_view, 135> kOpcodes = {
    "abs", "activemask", "add", "addc", "alloca", "and", "applypriority", "atom", "bar",
    "barrier", "bfe", "bfi", "bfind", "bmsk", "bra", "brev", "brkpt", "brx", "call",
    "clusterlaunchcontrol", "clz", "cnot", "copysign", "cos", "cp", "createpolicy", "cvt",
    "cvta", "discard", "div", "dp2a", "dp4a", "elect", "ex2", "exit", "fence", "fma", "fns",
    "getctarank", "griddepcontrol", "isspacep", "istypep", "ld", "ldmatrix", "ldu", "lg2",
    "lop3", "mad", "mad24", "madc", "mapa", "match", "max", "mbarrier", "membar", "min", "mma",
    "mov", "movmatrix", "mul", "mul24", "multimem", "nanosleep", "neg", "not", "or", "pmevent",
    "popc", "prefetch", "prefetchu", "prmt", "rcp", "red", "redux", "rem", "ret", "rsqrt", "sad",
    "selp", "set", "setmaxnreg", "setp", "shf", "shfl", "shl", "shr", "sin", "slct", "sqrt", "st",
    "stackrestore", "stacksave", "stmatrix", "sub", "subc", "suld", "suq", "sured", "sust",
    "szext", "tanh", "tcgen05", "tensormap", "testp", "tex", "tld4", "trap", "txq", "vabsdiff",
    "vabsdiff2", "vabsdiff4", "vadd", "vadd2", "vadd4", "vavrg2", "vavrg4", "vmad", "vmax",
    "vmax2", "vmax4", "vmin", "vmin2", "vmin4", "vote", "vset", "vset2", "vset4", "vshl", "vshr",
    "vsub", "vsub2", "vsub4", "wgmma", "wmma", "xor"};

}  // namespace

bool isKnownOpcode(std::string_view opcode) {
  return std::binary_search(kOpcodes.begin(), kOpcodes.end(), opcode);
}

void checkUnknownOpcode(const RuleContext& context) {
  for (const InstructionSite& site : context.module.instructions) {
    if (site.inDamagedCode) continue;
    std::string_view opcode = context.textOf(site.opcode);
    bool letter = !opcode.empty() && ((opcode[0] >= 'a' && opcode[0] <= 'z') ||
                                      (opcode[0] >= 'A' && opcode[0] <= 'Z'));
    if (!letter || isKnownOpcode(opcode)) continue;  // SYN008 reports non-letters.
    std::string message = "unknown instruction '" + std::string(opcode) + "'";
    std::string lower(opcode);
    for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (isKnownOpcode(lower)) {
      message += "; PTX opcodes are lowercase: did you mean '" + lower + "'?";
    } else {
      std::vector<std::string_view> candidates(kOpcodes.begin(), kOpcodes.end());
      std::string_view suggestion = closestMatch(opcode, candidates);
      if (!suggestion.empty()) message += "; did you mean '" + std::string(suggestion) + "'?";
    }
    context.report("ISA001", Category::Isa, site.opcode, std::move(message));
  }
}

}  // namespace ptx

// CallSequence: what the call-sequence rules (CSQ001, CSQ002) share — which instructions
// move a value into or out of a call's `.param` argument or return variable.
//
// Such a variable is a `.param` declared inside a function body (nvcc and clang put it in the
// `{ }` block around the call); a function's own formal parameters are not concerned.
#pragma once

#include <cstdint>

#include "RuleContext.h"

namespace ptx {

enum class ParamTransferKind : std::uint8_t { None, Store, Load };

struct ParamTransfer {
  ParamTransferKind kind = ParamTransferKind::None;
  SymbolId variable = kNoSymbol;   // The body-local `.param` variable addressed.
  std::uint32_t addressOperand = 0;  // Index of the address among the site's operands.
};

// Whether `id` is a `.param` variable declared in a function body (not a formal parameter).
bool isCallParamVariable(const Module& module, SymbolId id);

// `st.param [var...], ...` or `ld.param ..., [var...]` on a body-local `.param` variable;
// kind None for every other instruction.
ParamTransfer paramTransferOf(const RuleContext& context, const InstructionSite& site);

// A short description of a call for messages: "the call to 'f'" or "the indirect call".
std::string describeCall(const RuleContext& context, const InstructionSite& call);

}  // namespace ptx

// SharedOperands: which shared variables a register value may point into when the value is
// not a plain address (a wgmma matrix descriptor packs `(address >> 4) & 0x3FFF` among other
// fields). The definitions feeding the value are walked back, and every `.shared` variable
// named along the way is collected.
#pragma once

#include <cstdint>
#include <set>

#include "RuleContext.h"
#include "flow/FunctionFlow.h"

namespace ptx::sync {

// The shared variables the value of `operand` at `instruction` is computed from; empty when
// none is found within a bounded walk (the rules then stay quiet).
std::set<SymbolId> sharedSymbolsFeeding(const RuleContext& context, flow::FunctionFlow& flow, std::uint32_t instruction,
                                        const InstructionOperand& operand);

// The matrix-descriptor operands of a `wgmma.mma_async` (indices into Module::operands): the
// B descriptor, and the A descriptor when A comes from shared memory.
std::vector<std::uint32_t> wgmmaDescriptorOperands(const RuleContext& context, const InstructionSite& site);

}  // namespace ptx::sync

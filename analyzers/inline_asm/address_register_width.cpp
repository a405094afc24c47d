// ASM005 address-register-width
//
// What it does: reports an asm operand bound with a 32-bit (`"r"`) or 16-bit (`"h"`)
// constraint that the template uses as the address of a generic or `.global` memory access
// (`ld`, `st`, `atom`, `red`, `mbarrier`, `cp.async`, ...).
//
// Why is this bad: nvcc's PTX uses 64-bit addresses (`.address_size 64`). A 32-bit register
// in a generic or global address makes ptxas warn "Program uses 32-bit address ... conflicting
// with .address_size 64" and then stop with a fatal error on every target ("32-Bit ABI ... not
// supported on sm_90 or higher", "32-Bit compilation is no longer supported" before). 32-bit
// addresses are fine with `.shared`, `.shared::cluster` and `.local`, which is how shared-memory
// wrappers pass `__cvta_generic_to_shared` results.
//
// Example:
//     uint32_t bar = __cvta_generic_to_shared(&mbar);
//     asm volatile("mbarrier.init.b64 [%0], %1;" :: "r"(bar), "r"(count));
//
// Use instead:
//     asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count));
//
// Fix: name the state space the address belongs to (`.shared::cta`), or pass a 64-bit generic
// pointer with `"l"`.
//
// References: docs/inline-ptx.md §2 (shared addresses); PTX ISA §6.4.1 (addresses).
#include "inline_asm/AsmRuleContext.h"

namespace ptx {
namespace {

bool accessesMemory(const InstructionFacts& facts) {
  return facts.does(kReadsMemory | kWritesMemory | kAtomic | kMbarrierOperation | kCompletesOnMbarrier |
                    kCompletesInBulkGroup | kCompletesInAsyncGroup);
}

bool needsWideAddress(StateSpace space) { return space == StateSpace::None || space == StateSpace::Global; }

}  // namespace

void checkAddressRegisterWidth(const AsmRuleContext& context) {
  const Module& module = context.fragmentLint.module;
  for (const CheckedStatement& checked : context.statements) {
    if (checked.fragmentFunction == UINT32_MAX) continue;
    const FunctionInfo& function = module.functions[checked.fragmentFunction];
    for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
      const InstructionSite& site = module.instructions[i];
      const InstructionFacts& facts = module.factsOf(site);
      if (!accessesMemory(facts)) continue;
      std::uint32_t addressIndex = 0;
      for (std::uint32_t k = 0; k < site.operandCount; ++k) {
        const InstructionOperand& operand = module.operands[site.firstOperand + k];
        if (operand.shape != OperandShape::Address) continue;
        StateSpace space = addressIndex == 1 && facts.secondSpace != StateSpace::None ? facts.secondSpace : facts.space;
        ++addressIndex;
        if (!needsWideAddress(space)) continue;
        std::optional<std::uint32_t> index = context.operandOfSymbol(checked, operand.symbol);
        if (!index) continue;
        const cuda::AsmOperand& asmOperand = checked.statement->operands[*index];
        unsigned bits = cuda::registerBitsOf(asmOperand.kind);
        if (bits == 0 || bits >= 64) continue;
        context.report("ASM005", AsmRuleContext::constraintLetter(checked, *index),
                       concat({"operand %", std::to_string(*index), " is ", std::to_string(bits), "-bit ('",
                              std::string(1, asmOperand.letter), "') but is used as a ",
                              space == StateSpace::Global ? "global" : "generic",
                              " address, which needs 64 bits: ptxas stops with \"32-Bit ABI ... not supported\"; "
                              "name the state space (.shared::cta) or pass the pointer with \"l\""}),
                       {{context.operandReferenceIn(checked, *index, operand.range), "used as an address here"}});
      }
    }
  }
}

}  // namespace ptx

// ALN005 access-alignment
//
// What it does: reports a load, store or atomic (`ld`, `ldu`, `st`, `atom`, `red`) whose
// address is not aligned to the size of the access — a `.v4.f32` moves 16 bytes and needs
// a 16-byte aligned address — when the value analysis proves it: a constant offset that
// breaks the alignment of a declared variable, arithmetic on such an address, or a known
// offset into a variable declared with less alignment than the access needs. Addresses
// whose alignment cannot be proven either way are not reported, and neither are `.param`
// accesses (their layout belongs to the compiler).
//
// Why is this bad: PTX requires every access to be naturally aligned; a misaligned one is
// undefined (the low address bits may be ignored, or the access faults). ptxas accepts it.
// On an H100 `ld.shared.v4.f32` and `ld.global.v2.u64` 8 bytes off their 16-byte alignment
// both stop the kernel with cudaErrorMisalignedAddress (tests/gpu/RESULTS.md).
//
// Example:
//     .shared .align 16 .b8 tile[256];
//     ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [tile+8];
//
// Use instead:
//     ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [tile+16];
//
// References: PTX ISA §6.4.1 (addresses must be naturally aligned to the access size),
// §5.4.5 (variable alignment).
#include <string>

#include "AddressAlignment.h"

namespace ptx {

void checkAccessAlignment(const RuleContext& context) {
  const Module& module = context.module;
  for (std::uint32_t index = 0; index < module.instructions.size(); ++index) {
    auto access = memoryAccessOf(context, module.instructions[index]);
    if (!access || access->facts.has(Modifier::Param)) continue;
    std::string_view opcode = nameOf(access->facts.family);
    auto size = access->facts.accessBytes();
    if (!size || *size <= 1) continue;
    const InstructionOperand& address = access->operand(module, access->addressIndex);
    if (address.shape != OperandShape::Address) continue;
    if (auto misaligned = misalignedAddress(context, index, address, *size, Evidence::Proof)) {
      std::move(*misaligned).report(context, "ALN005", address.range, concat({"a ", std::to_string(*size), "-byte ", std::string(opcode), " needs a ",
                             std::to_string(*size), "-byte aligned address: "}));
    }
  }
}

}  // namespace ptx

// ALN007 constant-offset-out-of-bounds
//
// What it does: reports a load, store or atomic whose address is a known constant offset
// from a variable of known size (a scalar, a vector or a sized array) and whose accessed
// bytes reach outside that variable — a negative offset, or offset plus access size past
// its end. Offsets are followed through mov, add, sub, cvta and the other operations the
// value analysis knows; unsized (`[]`) arrays and unknown offsets are never reported.
//
// Why is this bad: the access reads or overwrites whatever the assembler placed next to the
// variable (another variable, another thread's data, or nothing), and ptxas does not check.
// It is usually an off-by-one in an unrolled loop or a stale offset after a buffer shrank.
//
// Example:
//     .shared .align 16 .b8 tile[64];
//     st.shared.v4.u32 [tile+56], {%r1, %r2, %r3, %r4};   // bytes 56..71 of a 64-byte array
//
// Use instead:
//     st.shared.v4.u32 [tile+48], {%r1, %r2, %r3, %r4};
//
// References: PTX ISA §5.4 (variables, array declarations), §6.4.1 (addresses).
#include <string>

#include "AddressAlignment.h"

namespace ptx {
namespace {

std::optional<std::uint64_t> sizeInBytes(const Symbol& symbol) {
  std::uint32_t element = infoOf(symbol.typeId).typeBytes;
  if (element == 0) return std::nullopt;
  std::uint64_t size = std::uint64_t{element} * (symbol.vectorWidth == 0 ? 1 : symbol.vectorWidth);
  for (const auto& dimension : symbol.dimensions) {
    if (!dimension || *dimension == 0) return std::nullopt;
    size *= *dimension;
  }
  if (symbol.isArray && symbol.dimensions.empty()) return std::nullopt;
  return size;
}

}  // namespace

void checkConstantOffsetOutOfBounds(const RuleContext& context) {
  const Module& module = context.module;
  for (std::uint32_t index = 0; index < module.instructions.size(); ++index) {
    auto memory = memoryAccessOf(context, module.instructions[index]);
    if (!memory) continue;
    bool load = memory->isLoad;
    auto access = memory->facts.accessBytes();
    if (!access) continue;
    // A load into `{a, b, c, _}` discards its trailing elements: nvcc reads a float3 that way,
    // within the variable's alignment padding. Count only the bytes kept.
    const InstructionOperand& destination = memory->operand(module, 0);
    if (load && destination.shape == OperandShape::Vector && destination.elementCount > 0) {
      std::uint64_t element = *access / destination.elementCount;
      std::uint32_t kept = destination.elementCount;
      while (kept > 0 && module.operands[destination.firstElement + kept - 1].shape == OperandShape::Sink) --kept;
      access = element * kept;
      if (*access == 0) continue;
    }
    const InstructionOperand& address = memory->operand(module, memory->addressIndex);
    if (address.shape != OperandShape::Address) continue;
    flow::FunctionFlow* flow = context.flows.flowOfInstruction(index);
    if (flow == nullptr) continue;
    flow::AbstractValue value = flow->addressOf(index, address);
    auto offset = value.exactOffset();
    if (!value.computed || !offset) continue;
    const Symbol& symbol = module.symbols[value.base];
    if (symbol.kind != SymbolKind::Variable && symbol.kind != SymbolKind::Parameter) continue;
    // Parameters are laid out by the compiler (old nvcc declared struct parameters without a
    // size); registers and extern declarations have no size to check against.
    if (symbol.isRegister() || symbol.isExtern || symbol.spaceId == Modifier::Param) continue;
    auto size = sizeInBytes(symbol);
    if (!size) continue;
    if (*offset >= 0 && static_cast<std::uint64_t>(*offset) + *access <= *size) continue;
    std::string message = concat({"this ", std::to_string(*access), "-byte access at ", describeAddress(context, value, address),
                                  " reaches outside '", symbol.name, "' (", std::to_string(*size), " bytes)"});
    context.report("ALN007", address.range, std::move(message));
    context.out.back().related.push_back({symbol.nameRange, concat({"'", symbol.name, "' is declared here"})});
  }
}

}  // namespace ptx

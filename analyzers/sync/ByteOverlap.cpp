#include "sync/ByteOverlap.h"

#include "flow/ThreadModel.h"

namespace ptx::sync {

std::optional<std::uint64_t> bulkCopyBytes(const RuleContext& context, std::uint32_t copy) {
  const InstructionSite& site = context.module.instructions[copy];
  if (context.module.factsOf(site).has(Modifier::Tensor)) return 16;
  flow::FunctionFlow* flow = context.flows.flowOfInstruction(copy);
  if (flow == nullptr || site.operandCount < 3) return std::nullopt;
  return flow->valueOf(copy, context.module.operands[site.firstOperand + 2]).constantValue();
}

bool provablyOverlap(const RuleContext& context, std::size_t function, const ByteRangeAccess& first,
                     const ByteRangeAccess& second) {
  const Module& module = context.module;
  flow::FunctionFlow& flow = context.flows.flowOfFunction(function);
  flow::AbstractValue a = flow.addressOf(first.instruction, *first.address);
  flow::AbstractValue b = flow.addressOf(second.instruction, *second.address);
  if (a.base == kNoSymbol || a.base != b.base) return false;
  auto overlap = [&](std::int64_t x, std::int64_t y) {
    return x < y + static_cast<std::int64_t>(second.size) && y < x + static_cast<std::int64_t>(first.size);
  };
  auto x = a.exactOffset();
  auto y = b.exactOffset();
  if (x && y) return overlap(*x, *y);
  // One access covers the whole variable from its start: any access into it overlaps.
  const Symbol& variable = module.symbols[a.base];
  if (!variable.dimensions.empty()) {
    std::uint64_t bytes = flow::typeSizeInBytes(variable.typeId).value_or(0);
    for (const auto& dimension : variable.dimensions) bytes = dimension ? bytes * *dimension : 0;
    if (bytes != 0 && ((x && *x == 0 && first.size >= bytes) || (y && *y == 0 && second.size >= bytes))) return true;
  }
  flow::ThreadModel& model = context.flows.threadsOfFunction(function);
  flow::ThreadCoordinates thread;
  for (std::uint64_t seed : flow::kProofSeeds) {
    auto p = model.evaluateAddress(first.instruction, *first.address, thread, seed);
    auto q = model.evaluateAddress(second.instruction, *second.address, thread, seed);
    if (!p || !q) return false;
    if (!overlap(static_cast<std::int64_t>(*p), static_cast<std::int64_t>(*q))) return false;
  }
  return true;
}

}  // namespace ptx::sync

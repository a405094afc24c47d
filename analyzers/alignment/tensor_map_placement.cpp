// ALN004 tensor-map-placement
//
// What it does: checks the tensor-map operand of the instructions that read a tensor map
// (`cp.async.bulk.tensor`, `cp.reduce.async.bulk.tensor`, `cp.async.bulk.prefetch.tensor`,
// `prefetch.tensormap`): when the analysis knows which variable the address points into,
// the variable must be a kernel parameter, `.const` or `.global` data, and must be declared
// with at least 64-byte alignment.
//
// Why is this bad: the tensor memory accelerator fetches the 128-byte tensor map itself,
// from the parameter, constant or global space only; a map in shared or local memory is
// undefined behaviour that ptxas accepts. The map must be 64-byte aligned — CUDA's
// `CUtensorMap` is declared `alignas(64)` and nvcc passes it as `.param .align 64 .b8
// [128]`. Copying a map to shared memory to edit it with `tensormap.replace` is fine; using
// the shared copy directly in a copy is not.
//
// Example:
//     .shared .align 128 .b8 smap[128];
//     mov.u64 %rd1, smap;
//     cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [buf], [%rd1, {%r1}], [bar];
//
// Use instead:
//     .visible .entry k(.param .align 64 .b8 k_param_0[128])
//     ...
//     mov.u64 %rd1, k_param_0;
//
// References: PTX ISA §5.5.8 (tensor-map: "in .param, .const or .global space"); CUDA
// driver API, CUtensorMap (64-byte aligned).
#include <algorithm>
#include <string>

#include "AddressAlignment.h"

namespace ptx {
namespace {

// The tensor-map operand of a tensor-reading instruction, if `site` is one.
const InstructionOperand* tensorMapOperand(const RuleContext& context, const InstructionSite& site) {
  const Module& module = context.module;
  const InstructionFacts& facts = module.factsOf(site);
  if (site.operandCount < 1) return nullptr;
  const InstructionOperand& first = module.operands[site.firstOperand];
  if (facts.is(Family::Prefetch) || facts.is(Family::Prefetchu)) return facts.has(Modifier::Tensormap) ? &first : nullptr;
  if (!facts.is(Family::Cp) || !facts.has(Modifier::Bulk) || !facts.has(Modifier::Tensor)) return nullptr;
  if (facts.has(Modifier::Prefetch)) return &first;
  // Loads: [dst], [tensorMap, coords]; stores and reductions: [tensorMap, coords], [src].
  for (std::uint32_t i = 0; i < site.operandCount && i < 2; ++i) {
    const InstructionOperand& operand = module.operands[site.firstOperand + i];
    if (operand.shape == OperandShape::Address && context.textOf(operand.range).find(',') != std::string_view::npos) {
      return &operand;
    }
  }
  return nullptr;
}

bool isKernelParameter(const Module& module, SymbolId symbol) {
  for (const FunctionInfo& function : module.functions) {
    if (function.symbol == kNoSymbol || !module.symbols[function.symbol].isEntry) continue;
    if (std::find(function.parameters.begin(), function.parameters.end(), symbol) != function.parameters.end()) return true;
  }
  return false;
}

}  // namespace

void checkTensorMapPlacement(const RuleContext& context) {
  const Module& module = context.module;
  for (std::uint32_t index = 0; index < module.instructions.size(); ++index) {
    const InstructionSite& site = module.instructions[index];
    if (site.inDamagedCode || site.isCall) continue;
    const InstructionOperand* map = tensorMapOperand(context, site);
    if (map == nullptr || map->shape != OperandShape::Address) continue;
    flow::FunctionFlow* flow = context.flows.flowOfInstruction(index);
    if (flow == nullptr) continue;
    flow::AbstractValue value = flow->addressOf(index, *map);
    if (!value.computed || value.base == kNoSymbol) continue;
    const Symbol& symbol = module.symbols[value.base];
    if (symbol.kind != SymbolKind::Variable && symbol.kind != SymbolKind::Parameter) continue;
    bool kernelParameter = symbol.kind == SymbolKind::Parameter && symbol.spaceId == Modifier::Param && isKernelParameter(module, value.base);
    Modifier space = symbol.spaceId;
    if (space == Modifier::Shared || space == Modifier::Local || (space == Modifier::Param && !kernelParameter)) {
      context.report("ALN004", map->range,
                     concat({"tensor map '", symbol.name, "' is in ", symbol.space(),
                             " memory; the tensor memory accelerator reads maps only from kernel parameters, "
                             ".const or .global memory"}),
                     {declaredHere(context, value.base)});
      continue;
    }
    auto declared = flow::declaredAlignment(symbol);
    auto offset = value.exactOffset();
    if (declared && *declared < 64 && offset && *offset % 64 == 0) {
      context.report("ALN004", map->range,
                     concat({"tensor map '", symbol.name, "' must be 64-byte aligned but is declared with ",
                             std::to_string(*declared), "-byte alignment"}),
                     {declaredHere(context, value.base)});
    } else if (auto misaligned = misalignedAddress(context, index, *map, 64, Evidence::ProofOrDeclaration)) {
      std::move(*misaligned).report(context, "ALN004", map->range, "tensor map must be 64-byte aligned: ");
    }
  }
}

}  // namespace ptx

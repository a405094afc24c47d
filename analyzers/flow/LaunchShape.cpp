#include "flow/LaunchShape.h"

#include <algorithm>

#include "isa/InstructionFacts.h"

namespace ptx::flow {
namespace {

// Calls `visit(name)` with the spelling of every special register the function reads.
template <typename Visit>
void forEachSpecialRegister(std::string_view text, const Module& module, std::size_t function, Visit visit) {
  const FunctionInfo& info = module.functions[function];
  for (std::uint32_t i = info.firstInstruction; i < info.firstInstruction + info.instructionCount; ++i) {
    const InstructionSite& site = module.instructions[i];
    for (std::uint32_t o = site.firstOperand; o < site.firstOperand + site.operandCount; ++o) {
      const InstructionOperand& operand = module.operands[o];
      if (operand.shape != OperandShape::SpecialRegister) continue;
      visit(text.substr(operand.range.begin, operand.range.end - operand.range.begin));
    }
  }
}

// The component of `name` when it is `prefix` or one of its components, else -1.
int componentAfter(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix)) return -1;
  return componentOf(name.substr(prefix.size()));
}

}  // namespace

int componentOf(std::string_view suffix) {
  if (suffix.empty()) return 0;
  if (suffix.size() != 2 || suffix[0] != '.') return -1;
  switch (suffix[1]) {
    case 'x': return 0;
    case 'y': return 1;
    case 'z': return 2;
    default: return -1;
  }
}

LaunchShape launchShapeOf(std::string_view text, const Module& module, std::size_t function) {
  LaunchShape launch;
  // Without a declared shape, a kernel that indexes by %tid.x but never reads %ntid.x often
  // assumes a block width of its own (a 16 x 16 tile): only 16 threads along x are sure to
  // exist then, and one along y and z unless the kernel reads %tid.y or %tid.z.
  bool readsWidth = false, readsY = false, readsZ = false;
  forEachSpecialRegister(text, module, function, [&](std::string_view name) {
    readsWidth = readsWidth || componentAfter(name, "%ntid") == 0;
    int tid = componentAfter(name, "%tid");
    readsY = readsY || tid == 1;
    readsZ = readsZ || tid == 2;
  });
  // A two-dimensional block indexed as a tile is often 8 wide (8 x 8 DCT blocks).
  launch.ntid = {readsWidth ? 64u : (readsY ? 8u : 16u), readsY ? 2u : 1u, readsZ ? 2u : 1u};
  const FunctionInfo& info = module.functions[function];
  for (const HeaderDirective& directive : info.directives) {
    if (modifierNamed(directive.name) != Modifier::Reqnctapercluster || directive.values.empty()) continue;
    for (std::size_t d = 0; d < 3; ++d) {
      std::uint64_t value = d < directive.values.size() ? directive.values[d] : 1;
      launch.cluster[d] = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(value, 1, 16));
    }
  }
  for (Modifier shape : {Modifier::Reqntid, Modifier::Maxntid}) {
    for (const HeaderDirective& directive : info.directives) {
      if (modifierNamed(directive.name) != shape || directive.values.empty()) continue;
      for (std::size_t d = 0; d < 3; ++d) {
        std::uint64_t value = d < directive.values.size() ? directive.values[d] : 1;
        launch.ntid[d] = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(value, 1, 1024));
      }
      launch.declared = true;
      return launch;
    }
  }
  return launch;
}

CoordinateReads coordinateReadsOf(std::string_view text, const Module& module, std::size_t function) {
  CoordinateReads reads;
  forEachSpecialRegister(text, module, function, [&](std::string_view name) {
    if (name.starts_with("%tid") || name.starts_with("%laneid") || name.starts_with("%warpid")) reads.thread = true;
    int cta = componentAfter(name, "%ctaid");
    if (cta >= 0) reads.ctaDimensions |= static_cast<std::uint8_t>(1u << cta);
    if (name.starts_with("%ctaid") || name.starts_with("%nctaid") || name.starts_with("%cluster_ctarank") ||
        name.starts_with("%clusterid")) {
      reads.cta = true;
    }
  });
  return reads;
}

}  // namespace ptx::flow

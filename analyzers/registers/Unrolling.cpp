// Unrolling: the registers ptxas's loop unrolling adds (see Unrolling.h).
#include "registers/Unrolling.h"

#include <algorithm>

#include "registers/Budget.h"
#include "registers/Constants.h"
#include "registers/InstructionClasses.h"
#include "registers/RegisterPressure.h"

namespace ptx::registers {
namespace {

// Whether a single-block loop counts: its back edge is taken on a comparison of a register
// the block steps by a constant (`add.s32 %r3, %r3, 1`), so ptxas can compute the trip count
// and unroll it with a remainder. A loop stepping by a register keeps its shape.
bool countedLoop(const Module& module, flow::FunctionFlow& flow, const flow::BasicBlock& block) {
  const InstructionSite& branch = module.instructions[block.end - 1];
  auto guard = flow.guardRegisterOf(branch);
  if (!guard) return false;
  auto guardKey = flow.registerOf(*guard);
  if (!guardKey) return false;
  auto registerAt = [&](const InstructionSite& site, std::uint32_t k) -> std::optional<flow::RegisterKey> {
    if (k >= site.operandCount) return std::nullopt;
    return flow.registerOf(module.operands[site.firstOperand + k]);
  };
  for (std::uint32_t i = block.first; i + 1 < block.end; ++i) {
    const InstructionSite& compare = module.instructions[i];
    if (!module.factsOf(compare).is(Family::Setp) || compare.operandCount < 3) continue;
    auto defined = registerAt(compare, 0);
    if (!defined || !(*defined == *guardKey)) continue;
    for (std::uint32_t k = 1; k < 3; ++k) {
      auto compared = registerAt(compare, k);
      if (!compared) continue;
      for (std::uint32_t j = block.first; j + 1 < block.end; ++j) {
        const InstructionSite& step = module.instructions[j];
        const InstructionFacts& stepFacts = module.factsOf(step);
        if ((!stepFacts.is(Family::Add) && !stepFacts.is(Family::Sub)) || step.operandCount != 3) continue;
        auto destination = registerAt(step, 0);
        auto source = registerAt(step, 1);
        bool constantStep = module.operands[step.firstOperand + 2].shape == OperandShape::IntegerLiteral;
        if (destination && source && constantStep && *destination == *compared && *source == *compared) return true;
      }
    }
  }
  return false;
}

}  // namespace

// ptxas unrolls small innermost loops that carry no `.pragma "nounroll"` four times and
// issues the copies' loads together, so each long-latency load result of the body is live
// four times over — but it stops short of costing occupancy: the figure never goes past the
// registers that keep every warp slot of the SM usable (32 on sm_80/sm_90, 40 on sm_86/sm_89,
// 64 on sm_75), unless it was there already. Measured with ptxas 13 on single-block loops of
// 1..12 global loads and 0..48 other instructions on sm_75, sm_80, sm_86 and sm_90: bodies of
// up to about 45 instructions are unrolled, and the figure grows by about three registers per
// load result up to that ceiling. Single-block loops only: the shape compilers leave after
// if-conversion, and the one measured.
std::uint32_t unrolledLoopRegisters(std::string_view text, const Module& module, flow::FunctionFlow& flow,
                                    const FunctionInfo& function, const LoweredFunction& lowered,
                                    const std::vector<flow::BasicBlock>& blocks, const RegisterEstimate& estimate,
                                    std::uint32_t current) {
  std::uint32_t result = 0;
  std::uint32_t ceiling = std::max(current, fullOccupancyRegisters(compiledArchitecture(text, module)));
  std::uint32_t first = function.firstInstruction;
  for (std::uint32_t b = 0; b < blocks.size(); ++b) {
    const flow::BasicBlock& block = blocks[b];
    std::uint32_t size = block.end - block.first;
    if (size == 0 || size > kLargestUnrolledBody) continue;
    if (std::find(block.successors.begin(), block.successors.end(), b) == block.successors.end()) continue;
    // The loop's text, from the end of the instruction before it (its label and pragmas
    // included) to its last instruction.
    std::size_t from = block.first > first ? module.instructions[block.first - 1].statement.end
                                           : module.instructions[block.first].statement.begin;
    std::size_t to = module.instructions[block.end - 1].statement.end;
    if (from < to && to <= text.size() && text.substr(from, to - from).find("nounroll") != std::string_view::npos) {
      continue;
    }
    std::uint32_t loadUnits = 0;
    std::uint32_t textureUnits = 0;
    std::uint32_t peak = 0;
    bool writesMemory = false;
    bool synchronizes = false;
    for (std::uint32_t i = block.first; i < block.end; ++i) {
      peak = std::max<std::uint32_t>(peak, estimate.liveUnits[i - first]);
      const InstructionSite& site = module.instructions[i];
      const InstructionFacts& facts = module.factsOf(site);
      const FamilyClass& family = classOf(facts);
      bool shared = inSpace(facts, StateSpace::Shared, StateSpace::SharedCluster);
      // A store the next copy's loads may alias keeps them behind it (a shared store only
      // stops loads of shared memory, which are not long-latency); barriers, fences and calls
      // keep everything in place.
      if (family.has(kWritesMemory)) writesMemory = writesMemory || !shared || !facts.is(Family::St);
      if (site.isCall || family.has(kPinsLoop)) synchronizes = true;
      // Loads from the constant banks, parameters and shared memory are not long-latency.
      bool longLatency = family.has(kLongLatencyResult) && !shared && !inSpace(facts, StateSpace::Param, StateSpace::Const);
      if (!longLatency) continue;
      bool texture = family.has(kTextureFetch);
      for (std::uint32_t d : lowered.instructions[i - first].defs) {
        if (lowered.values[d].predicate) continue;
        (texture ? textureUnits : loadUnits) += lowered.values[d].units;
      }
    }
    if (synchronizes || !countedLoop(module, flow, block)) continue;
    // Texture fetches read through a cache that stores do not update within a kernel: they
    // move past stores; other loads do not.
    if (writesMemory) loadUnits = 0;
    loadUnits += textureUnits;
    if (loadUnits == 0) continue;
    std::uint32_t unrolled = peak + (kUnrollFactor - 1) * loadUnits + 1 + kReportedReserve;
    result = std::max(result, std::min(unrolled, ceiling));
  }
  return result;
}

}  // namespace ptx::registers

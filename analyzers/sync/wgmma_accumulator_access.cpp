// SNC008 wgmma-accumulator-access
//
// What it does: follows `wgmma.mma_async` through `wgmma.commit_group` and
// `wgmma.wait_group N` on every path, and reports an instruction other than another
// `wgmma.mma_async` (which may chain on the same accumulators) that reads or writes an
// accumulator register of a warpgroup MMA still in flight.
//
// Why is this bad: `wgmma.mma_async` reads and writes its accumulator registers
// asynchronously, until a `wgmma.wait_group` covers its group. Touching those registers before
// (reading a partial result, or writing them while the MMA still accumulates into them) is
// undefined: the PTX ISA requires the wait first, and `wgmma.fence` before the registers are
// handed to the next MMA.
//
// Example:
//     wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, 1, 1, 1, 0, 0;
//     wgmma.commit_group.sync.aligned;
//     add.f32 %f5, %f1, %f2;
//
// Use instead:
//     wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, 1, 1, 1, 0, 0;
//     wgmma.commit_group.sync.aligned;
//     wgmma.wait_group.sync.aligned 0;
//     add.f32 %f5, %f1, %f2;
//
// References: PTX ISA wgmma.mma_async (accumulator registers are accessed asynchronously),
// wgmma.fence, wgmma.commit_group, wgmma.wait_group; §8.9.1.1.
#include <algorithm>
#include <string>
#include <vector>

#include "RuleContext.h"
#include "sync/BlockStates.h"

namespace ptx {
namespace {

// The accumulator registers of the MMAs in flight.
struct Accumulators : sync::AsyncGroups<flow::RegisterKey> {
  bool holds(const flow::RegisterKey& key) const {
    if (std::find(open.begin(), open.end(), key) != open.end()) return true;
    return std::any_of(groups.begin(), groups.end(),
                       [&](const auto& group) { return std::find(group.begin(), group.end(), key) != group.end(); });
  }
};

enum class WgmmaStep { None, Mma, Commit, Wait, Other };

WgmmaStep stepOf(const RuleContext& context, const InstructionSite& site) {
  const InstructionFacts& facts = context.module.factsOf(site);
  if (!facts.is(Family::Wgmma)) return WgmmaStep::None;
  if (facts.does(kWarpgroupMma)) return WgmmaStep::Mma;
  if (facts.does(kCommitsGroup)) return WgmmaStep::Commit;
  if (facts.does(kWaitsForGroup)) return WgmmaStep::Wait;
  return WgmmaStep::Other;  // wgmma.fence
}

}  // namespace

void checkWgmmaAccumulatorAccess(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (!hasAnalyzableBody(function)) continue;
    if (!anyInstructionOf(module, function,
                          [&](const InstructionSite& site) { return stepOf(context, site) == WgmmaStep::Mma; })) {
      continue;
    }
    flow::FunctionFlow& flow = context.flows.flowOfFunction(f);
    // The registers an operand names (itself, or a vector's elements).
    auto registersOf = [&](const InstructionOperand& operand) {
      std::vector<flow::RegisterKey> keys;
      if (operand.shape == OperandShape::Vector) {
        for (std::uint32_t e = 0; e < operand.elementCount; ++e) {
          if (auto key = flow.registerOf(module.operands[operand.firstElement + e])) keys.push_back(*key);
        }
      } else if (auto key = flow.registerOf(operand)) {
        keys.push_back(*key);
      }
      return keys;
    };
    std::vector<bool> reported(function.instructionCount, false);
    sync::forPathStates<Accumulators>(
        sync::Paths::Every, flow.blocks(),
        [&](std::uint32_t i, Accumulators& state) {
          const InstructionSite& site = module.instructions[i];
          switch (stepOf(context, site)) {
            case WgmmaStep::Mma:
              if (site.operandCount > 0) {
                for (const auto& key : registersOf(module.operands[site.firstOperand])) {
                  if (!state.holds(key)) state.open.push_back(key);
                }
              }
              break;
            case WgmmaStep::Commit:
              state.commit();
              break;
            case WgmmaStep::Wait:
              state.waitKeeping(site.operandCount > 0
                                    ? flow.valueOf(i, module.operands[site.firstOperand]).constantValue()
                                    : std::nullopt);
              break;
            case WgmmaStep::Other:
              break;
            case WgmmaStep::None:
              if (site.isCall) state = Accumulators{};
              break;
          }
        },
        [&](std::uint32_t i, const Accumulators& before) {
          if (before.weight() == 0 || reported[i - function.firstInstruction]) return;
          const InstructionSite& site = module.instructions[i];
          if (stepOf(context, site) != WgmmaStep::None || site.inDamagedCode) return;
          for (std::uint32_t o = site.firstOperand; o < site.firstOperand + site.operandCount; ++o) {
            for (const auto& key : registersOf(module.operands[o])) {
              if (!before.holds(key)) continue;
              reported[i - function.firstInstruction] = true;
              context.report(
                  "SNC008", site.statement,
                  concat({"this instruction uses '", module.symbols[key.symbol].name,
                          key.index > 0 || module.symbols[key.symbol].rangeCount > 0 ? std::to_string(key.index)
                                                                                     : std::string(),
                          "', an accumulator of a wgmma.mma_async still in flight: no wgmma.wait_group "
                          "covers it yet"}));
              return;
            }
          }
        });
  }
}

}  // namespace ptx

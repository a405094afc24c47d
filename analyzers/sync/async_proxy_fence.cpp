// SNC004 async-proxy-fence
//
// What it does: finds a bulk copy out of shared memory (`cp.async.bulk.global.shared::cta`,
// `cp.async.bulk.tensor` to global, `cp.reduce.async.bulk`) whose source variable, or a
// `wgmma.mma_async` whose matrix descriptor's variable, was written with ordinary stores
// (`st.shared`, `stmatrix`) with no `fence.proxy.async` between the stores and the consumer
// — on every path: the rule reports only what holds along all of them. A descriptor's
// variable is found by walking back the instructions that compute it.
//
// Why is this bad: bulk copies and wgmma read shared memory through the async proxy, and writes made
// through the generic proxy are not visible to it without a proxy fence (PTX ISA §8.6;
// CUDA's TMA examples put `fence.proxy.async.shared::cta` after filling the buffer). Without
// it the copy may send stale bytes to global memory. A barrier alone does not help: it orders
// threads, not proxies.
//
// Example:
//     st.shared.u32 [buf+%r1], %r2;
//     bar.sync 0;
//     cp.async.bulk.global.shared::cta.bulk_group [%rd1], [buf], 256;
//
// Use instead:
//     st.shared.u32 [buf+%r1], %r2;
//     fence.proxy.async.shared::cta;
//     bar.sync 0;
//     cp.async.bulk.global.shared::cta.bulk_group [%rd1], [buf], 256;
//
// References: PTX ISA §8.6 (proxies), fence.proxy.async, cp.async.bulk, wgmma.mma_async
// (operands in shared memory are read through the async proxy); CUDA C++ Programming Guide,
// TMA (fence before a shared-to-global bulk copy).
#include <set>
#include <string>

#include "RuleContext.h"
#include "sync/BlockStates.h"
#include "sync/SharedOperands.h"

namespace ptx {
namespace {

// Shared variables written through the generic proxy since the last proxy fence.
struct Written {
  std::set<SymbolId> symbols;
  bool operator==(const Written&) const = default;
  std::size_t weight() const { return symbols.size(); }
};

// The shared-memory source operand of a bulk copy that reads shared memory, if this is one.
std::optional<std::uint32_t> bulkSharedSource(const RuleContext& context, const InstructionSite& site) {
  const InstructionFacts& facts = context.module.factsOf(site);
  if (!facts.is(Family::Cp) || site.operandCount < 2) return std::nullopt;
  // cp.async.bulk.global.shared::cta / cp.reduce.async.bulk.global.shared::cta: [dst], [src]
  // (tensor: [tensorMap, coords], [src]).
  bool copiesThroughAsyncProxy = facts.does(kAsyncProxy) && facts.does(kReadsMemory | kWritesMemory);
  bool fromShared = facts.secondSpace == StateSpace::Shared || facts.secondSpace == StateSpace::SharedCluster;
  if (!copiesThroughAsyncProxy || facts.space != StateSpace::Global || !fromShared) return std::nullopt;
  return site.firstOperand + 1;
}

}  // namespace

void checkAsyncProxyFence(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (!hasAnalyzableBody(function)) continue;
    if (!anyInstructionOf(module, function, [&](const InstructionSite& site) {
          return bulkSharedSource(context, site).has_value() || !sync::wgmmaDescriptorOperands(context, site).empty();
        })) {
      continue;
    }
    flow::FunctionFlow& flow = context.flows.flowOfFunction(f);
    auto symbolOf = [&](std::uint32_t i, const InstructionOperand& address) { return flow.addressOf(i, address).base; };
    sync::forPathStates<Written>(
        sync::Paths::Every, flow.blocks(),
        [&](std::uint32_t i, Written& state) {
          const InstructionSite& site = module.instructions[i];
          const InstructionFacts& facts = module.factsOf(site);
          if (site.isCall) {
            state.symbols.clear();
            return;
          }
          if (facts.does(kProxyFence)) {
            state.symbols.clear();
            return;
          }
          if ((facts.is(Family::St) || facts.is(Family::Stmatrix)) && site.operandCount >= 2) {
            if (facts.space == StateSpace::Shared) {
              SymbolId symbol = symbolOf(i, module.operands[site.firstOperand]);
              if (symbol != kNoSymbol) state.symbols.insert(symbol);
            }
          }
        },
        [&](std::uint32_t i, const Written& before) {
          if (before.symbols.empty()) return;
          for (std::uint32_t descriptor : sync::wgmmaDescriptorOperands(context, module.instructions[i])) {
            for (SymbolId symbol : sync::sharedSymbolsFeeding(context, flow, i, module.operands[descriptor])) {
              if (!before.symbols.contains(symbol)) continue;
              context.report("SNC004", module.instructions[i].statement,
                           concat({"this wgmma reads '", module.symbols[symbol].name,
                                   "' through the async proxy, but ordinary stores wrote it with no "
                                   "fence.proxy.async since: the MMA may read stale values"}));
              return;
            }
          }
          auto source = bulkSharedSource(context, module.instructions[i]);
          if (!source || before.symbols.empty()) return;
          SymbolId symbol = symbolOf(i, module.operands[*source]);
          if (symbol == kNoSymbol || !before.symbols.contains(symbol)) return;
          context.report("SNC004", module.instructions[i].statement,
                       concat({"this bulk copy reads '", module.symbols[symbol].name,
                               "' through the async proxy, but ordinary stores wrote it with no fence.proxy.async "
                               "since: the copy may send stale bytes"}));
        });
  }
}

}  // namespace ptx

// SNC005 mbarrier-init-visibility
//
// What it does: follows each `mbarrier.init` to the uses of the same barrier object and
// reports, on some path:
// - another mbarrier operation on it (`arrive`, `expect_tx`, `test_wait`, `try_wait`...)
//   with no CTA barrier (`bar.sync`, `barrier.sync`, `barrier.cluster.wait`) since the init,
//   when the init runs under a thread-dependent condition (one thread initialises, all use);
// - a multicast asynchronous copy that completes on it in every CTA of the cluster
//   (`cp.async.bulk ... .multicast::cluster ... .mbarrier::complete_tx`) with no
//   `fence.mbarrier_init` or `fence.proxy.async` since the init.
// A copy that completes on the issuing CTA's own barrier is not reported: a CTA barrier
// after the init orders it (docs/races.md says why; NVIDIA's own cuda::memcpy_async and
// Triton's TMA code rely on this).
//
// Why is this bad: an mbarrier is an object in shared memory; the other threads see its
// initialised state only once a barrier orders them after the initialising thread, and the
// other CTAs of a cluster only after fence.mbarrier_init.release.cluster and a cluster
// barrier. Arriving on, or completing transactions on, an uninitialised barrier corrupts its phase:
// waits return early or never (compute-sanitizer's synccheck reports "Missing init" for the
// first case on an H100).
//
// Example:
//     @%p0 mbarrier.init.shared::cta.b64 [bar], 64;     // thread 0
//     mbarrier.arrive.shared::cta.b64 %rd1, [bar];      // every thread
//
// Use instead:
//     @%p0 mbarrier.init.shared::cta.b64 [bar], 64;
//     fence.mbarrier_init.release.cluster;
//     bar.sync 0;
//     mbarrier.arrive.shared::cta.b64 %rd1, [bar];
//
// References: PTX ISA mbarrier.init, fence.mbarrier_init, fence.proxy.async, §8.6 (proxies);
// CUDA C++ Programming Guide, asynchronous barriers and TMA.
#include <set>
#include <string>

#include "RuleContext.h"
#include "flow/ThreadModel.h"
#include "sync/BlockStates.h"
#include "sync/MbarrierOps.h"

namespace ptx {
namespace {

struct Initialized {
  std::set<SymbolId> unsynchronized;  // Not yet ordered before other threads by a barrier.
  std::set<SymbolId> unfenced;        // Not yet released to the async proxy.
  bool operator==(const Initialized&) const = default;
  std::size_t weight() const { return unsynchronized.size() + unfenced.size(); }
};

}  // namespace

void checkMbarrierInitVisibility(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (!hasAnalyzableBody(function)) continue;
    if (!anyInstructionOf(module, function, [&](const InstructionSite& site) {
          auto op = sync::mbarrierOpOf(context, site);
          return op && op->action == sync::MbarrierAction::Init;
        })) {
      continue;
    }
    flow::FunctionFlow& flow = context.flows.flowOfFunction(f);
    flow::ThreadModel& model = context.flows.threadsOfFunction(f);
    // Whether an instruction runs for only some threads: guarded, or in a block under a
    // thread-dependent branch (one thread initialises the barrier for all).
    auto forSomeThreads = [&](std::uint32_t i) {
      const InstructionSite& site = module.instructions[i];
      if (auto guard = flow.guardRegisterOf(site)) {
        if (model.divergenceOf(i, *guard) & flow::kVariesInCta) return true;
      }
      flow::ThreadCoordinates first, second;
      second.tid = {1, 0, 0};
      auto a = model.executes(i, first, 0x77, flow::kVariesInCta);
      auto b = model.executes(i, second, 0x77, flow::kVariesInCta);
      return a && b && *a != *b;
    };
    std::vector<bool> reported(function.instructionCount, false);
    sync::forPathStates<Initialized>(
        sync::Paths::Some, flow.blocks(),
        [&](std::uint32_t i, Initialized& state) {
          const InstructionSite& site = module.instructions[i];
          const InstructionFacts& facts = module.factsOf(site);
          if (site.isCall) {
            state = Initialized{};
            return;
          }
          // A barrier that waits: a CTA barrier, or the wait of a cluster barrier.
          if (facts.does(kCtaBarrier) || (facts.does(kClusterBarrier) && !facts.has(Modifier::Arrive))) {
            state.unsynchronized.clear();
            return;
          }
          if (facts.is(Family::Fence)) {
            if (facts.has(Modifier::MbarrierInit) || facts.does(kProxyFence)) state.unfenced.clear();
            return;
          }
          auto op = sync::mbarrierOpOf(context, site);
          if (!op || op->action != sync::MbarrierAction::Init) return;
          SymbolId symbol = flow.addressOf(i, module.operands[op->barrier]).base;
          if (symbol == kNoSymbol) return;
          if (forSomeThreads(i)) state.unsynchronized.insert(symbol);
          state.unfenced.insert(symbol);
        },
        [&](std::uint32_t i, const Initialized& before) {
          if (before.unsynchronized.empty() && before.unfenced.empty()) return;
          const InstructionSite& site = module.instructions[i];
          auto op = sync::mbarrierOpOf(context, site);
          if (!op || op->action == sync::MbarrierAction::Init || op->action == sync::MbarrierAction::Inval ||
              reported[i - function.firstInstruction]) {
            return;
          }
          bool completesAsync = op->copyDestination.has_value();
          SymbolId symbol = flow.addressOf(i, module.operands[op->barrier]).base;
          if (symbol == kNoSymbol) return;
          std::string name = module.symbols[symbol].name;
          // A copy that completes on the issuing CTA's own barrier after a CTA barrier is
          // ordered after the initialisation (docs/races.md, "SNC005 and the async proxy");
          // a multicast copy completes on the barriers of other CTAs of the cluster, which
          // only fence.mbarrier_init.release.cluster publishes.
          bool reachesOtherCtas = completesAsync && op->multicast;
          if (reachesOtherCtas && before.unfenced.contains(symbol)) {
            reported[i - function.firstInstruction] = true;
            context.report("SNC005", site.statement,
                         concat({"this asynchronous copy completes on '", name,
                                 "' in every CTA of the multicast, but no fence.mbarrier_init.release.cluster has "
                                 "published this CTA's initialisation of it to the cluster"}));
          } else if (!completesAsync && before.unsynchronized.contains(symbol) && !forSomeThreads(i)) {
            reported[i - function.firstInstruction] = true;
            context.report("SNC005", site.statement,
                         concat({"other threads use '", name,
                                 "' here, but only some threads initialised it and no barrier since orders them "
                                 "after the initialisation"}));
          }
        });
  }
}

}  // namespace ptx

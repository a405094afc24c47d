// SNC011 scope-too-narrow
//
// What it does: finds atomics and release/acquire/relaxed accesses of CTA scope
// (`atom.cta`, `red.cta`, `st.release.cta`, `ld.acquire.cta`...) on global memory whose bytes
// the same thread of another CTA also touches with an atomic or strong access, at least one
// of them writing: the address does not depend on the CTA. It also finds a fence of CTA scope
// (`membar.cta`, `fence.acq_rel.cta`: `__threadfence_block()`) between ordinary global stores
// and a relaxed atomic or strong store that other CTAs also reach (a ticket counter, a flag),
// in a function with no fence of wider scope: the fence is publishing the stores to other
// CTAs, which its scope does not reach. Kernels that never read %ctaid, %nctaid or
// %cluster_ctarank are taken to run as one CTA and are not checked.
//
// Why is this bad: a scope names the threads an operation synchronizes with (PTX ISA §8.5).
// Two CTA-scoped operations from different CTAs are not morally strong with respect to each
// other, so they race like plain accesses: CTA-scoped atomics on one counter from several
// CTAs may lose updates (the L1 of each SM may serve its own CTA), and a CTA-scoped release
// or acquire does not order another CTA's accesses. `atomicAdd_block` and
// `cuda::thread_scope_block` produce these; communication between CTAs needs `.gpu` (or
// `.cluster` within a cluster).
//
// Example:
//     atom.cta.global.add.u32 %r2, [%rd1], 1;    // every CTA increments out[0]
//
//     st.global.f32 [%rd4], %f1;                 // this CTA's partial result
//     membar.cta;
//     atom.global.add.u32 %r3, [%rd5], 1;        // the last CTA to arrive reads all partials
//
// Use instead:
//     atom.global.add.u32 %r2, [%rd1], 1;        // .gpu is the default scope
//
//     st.global.f32 [%rd4], %f1;
//     membar.gl;                                 // __threadfence()
//     atom.global.add.u32 %r3, [%rd5], 1;
//
// References: PTX ISA §8.5 (scope), §8.7 (morally strong operations, data races), atom, red,
// ld/st (.acquire, .release, .relaxed with a scope).
#include <set>

#include "RuleContext.h"
#include "alignment/AddressAlignment.h"
#include "flow/ThreadModel.h"
#include "races/RaceSearch.h"

namespace ptx {

namespace {

enum class FenceScope { None, Cta, Wider };

// The scope of a memory fence (membar, fence.sc/acq_rel); proxy and mbarrier_init fences,
// which order something else, are None.
FenceScope fenceScopeOf(const RuleContext& context, const InstructionSite& site) {
  const InstructionFacts& facts = context.module.factsOf(site);
  if (!facts.is(Family::Membar) && !facts.is(Family::Fence)) return FenceScope::None;
  if (facts.does(kProxyFence) || facts.has(Modifier::MbarrierInit)) return FenceScope::None;
  return facts.scope == MemoryScope::Cta ? FenceScope::Cta : FenceScope::Wider;
}

// A CTA-scoped fence that orders ordinary global stores before an access other CTAs reach.
void checkCtaFences(const RuleContext& context, std::size_t f, const std::vector<races::Access>& synchronizing) {
  const Module& module = context.module;
  const FunctionInfo& function = module.functions[f];
  std::vector<std::uint32_t> fences, stores;
  for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
    const InstructionSite& site = module.instructions[i];
    FenceScope scope = fenceScopeOf(context, site);
    if (scope == FenceScope::Wider || site.isCall)
      return;  // A wider fence (or a callee's) may be the one that publishes.
    if (scope == FenceScope::Cta) fences.push_back(i);
    // An ordinary (weak) store to global memory.
    const InstructionFacts& facts = module.factsOf(site);
    if (memoryAccessOf(context, site) && facts.is(Family::St) && facts.space == StateSpace::Global &&
        facts.semantics == Semantics::None) {
      stores.push_back(i);
    }
  }
  if (fences.empty() || stores.empty()) return;
  // The accesses other CTAs reach that publish: relaxed atomics and strong stores (an access
  // that releases at a wider scope publishes by itself).
  std::vector<races::Access> publishing;
  for (const races::Access& access : synchronizing) {
    if (!access.writes || access.ctaScope) continue;
    Semantics semantics = module.factsOf(access.instruction).semantics;
    if (semantics == Semantics::Release || semantics == Semantics::AcqRel) continue;
    publishing.push_back(access);
  }
  if (publishing.empty()) return;
  std::set<std::uint32_t> shared;  // Instructions of publishing accesses other CTAs reach.
  for (const races::Witness& w :
       races::findRaces(context, f, publishing, races::Space::Global, races::Pairs::Synchronizing)) {
    shared.insert(w.first->instruction);
    shared.insert(w.second->instruction);
  }
  if (shared.empty()) return;
  flow::ThreadModel& model = context.flows.threadsOfFunction(f);
  for (std::uint32_t fence : fences) {
    bool afterStore = false;
    for (std::uint32_t store : stores)
      afterStore = afterStore || model.reachableWithout(store, fence, flow::BarrierKind::None);
    if (!afterStore) continue;
    for (std::uint32_t access : shared) {
      if (!model.reachableWithout(fence, access, flow::BarrierKind::None)) continue;
      context.report("SNC011", module.instructions[fence].statement,
                     "this fence has CTA scope, but the stores before it are published to other CTAs through an "
                     "access they also reach: a CTA-scoped fence does not order the stores for them; use membar.gl "
                     "(__threadfence()) or fence.acq_rel.gpu",
                     {{module.instructions[access].statement, "the access other CTAs reach"}});
      break;
    }
  }
}

}  // namespace

void checkScopeTooNarrow(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (!hasAnalyzableBody(function)) continue;
    if (!module.symbols[function.symbol].isEntry) continue;
    // Nothing to check unless some instruction has CTA scope: a quick scan first.
    if (!anyInstructionOf(module, function, [&](const InstructionSite& site) {
          return module.factsOf(site).scope == MemoryScope::Cta;
        })) {
      continue;
    }
    std::vector<races::Access> accesses = races::accessesOf(context, f, races::Space::Global);
    bool anyNarrow = false, anyCtaFence = false;
    for (const races::Access& access : accesses) anyNarrow = anyNarrow || access.ctaScope;
    for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
      anyCtaFence = anyCtaFence || fenceScopeOf(context, module.instructions[i]) == FenceScope::Cta;
    }
    if (!anyNarrow && !anyCtaFence) continue;
    // Only the synchronizing accesses take part.
    std::erase_if(accesses, [](const races::Access& access) { return !access.strong && !access.atomic; });
    if (accesses.empty()) continue;
    flow::ThreadModel& model = context.flows.threadsOfFunction(f);
    if (model.ctaDimensionsRead() == 0) continue;
    if (anyCtaFence) checkCtaFences(context, f, accesses);
    if (!anyNarrow) continue;
    std::set<std::uint32_t> reported;
    for (const races::Witness& w :
         races::findRaces(context, f, accesses, races::Space::Global, races::Pairs::NarrowScope)) {
      for (int side = 0; side < 2; ++side) {
        const races::Access& access = side == 0 ? *w.first : *w.second;
        const races::Access& other = side == 0 ? *w.second : *w.first;
        const flow::ThreadCoordinates& thread = side == 0 ? w.firstThread : w.secondThread;
        const flow::ThreadCoordinates& peer = side == 0 ? w.secondThread : w.firstThread;
        if (!access.ctaScope || !reported.insert(access.instruction).second) continue;
        std::vector<RelatedInformation> related;
        if (&access != &other)
          related.push_back({module.instructions[other.instruction].statement, "the access in the other CTA"});
        context.report("SNC011", module.instructions[access.instruction].statement,
                       concat({"this access has CTA scope (.cta), but ", races::describeThread(thread, true), " and ",
                               races::describeThread(peer, true),
                               " reach the same bytes: operations of CTA scope do not synchronize between CTAs; "
                               "use .gpu"}),
                       std::move(related));
      }
    }
  }
}

}  // namespace ptx

// SNC011 scope-too-narrow
//
// What it does: finds atomics and release/acquire/relaxed accesses of CTA scope
// (`atom.cta`, `red.cta`, `st.release.cta`, `ld.acquire.cta`...) on global memory whose bytes
// the same thread of another CTA also touches with an atomic or strong access, at least one
// of them writing: the address does not depend on the CTA. Kernels that never read %ctaid,
// %nctaid or %cluster_ctarank are taken to run as one CTA and are not checked.
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
// Use instead:
//     atom.global.add.u32 %r2, [%rd1], 1;        // .gpu is the default scope
//
// References: PTX ISA §8.5 (scope), §8.7 (morally strong operations, data races), atom, red,
// ld/st (.acquire, .release, .relaxed with a scope).
#include <set>

#include "RuleContext.h"
#include "flow/ThreadModel.h"
#include "races/RaceSearch.h"

namespace ptx {

void checkScopeTooNarrow(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (function.bodyScope == kNoScope || function.instructionCount == 0 || function.hasSyntaxErrors) continue;
    if (!module.symbols[function.symbol].isEntry) continue;
    std::vector<races::Access> accesses = races::accessesOf(context, f, races::Space::Global);
    bool anyNarrow = false;
    for (const races::Access& access : accesses) anyNarrow = anyNarrow || access.ctaScope;
    if (!anyNarrow) continue;
    // Only the synchronizing accesses take part.
    std::erase_if(accesses, [](const races::Access& access) { return !access.strong && !access.atomic; });
    flow::ThreadModel& model = context.flows.threadsOfFunction(f);
    if (model.ctaDimensionsRead() == 0) continue;
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
        context.report("SNC011", Category::Sync, module.instructions[access.instruction].statement,
                       concat({"this access has CTA scope (.cta), but ", races::describeThread(thread, true), " and ",
                               races::describeThread(peer, true),
                               " reach the same bytes: operations of CTA scope do not synchronize between CTAs; use "
                               ".gpu"}),
                       std::move(related));
        context.out.back().severity = Severity::Warning;
      }
    }
  }
}

}  // namespace ptx

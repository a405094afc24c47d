// RAC002 cross-cta-global-race
//
// What it does: finds a store to global memory whose bytes a thread of another CTA also
// stores to or loads, at an address that does not depend on the CTA (`out[0]`,
// `out[threadIdx.x]` in a kernel that reads %ctaid elsewhere), when neither access is atomic
// or strong. Barriers order only the threads of one CTA, so nothing orders the two. Kernels
// that never read %ctaid, %nctaid or %cluster_ctarank are taken to run as one CTA and are
// not checked, nor are kernels that synchronize across CTAs (fences, acquire or release
// operations).
//
// Why is this bad: two CTAs writing the same word is a data race (PTX ISA §8.7.1): the last
// writer wins, in an order that changes from run to run, and a load racing with a store may
// see either value. Accumulate with `atom`/`red`, or give each CTA its own slot.
//
// Example:
//     mov.u32 %r1, %tid.x;
//     mul.wide.u32 %rd2, %r1, 4;
//     add.s64 %rd3, %rd1, %rd2;
//     st.global.u32 [%rd3], %r5;      // every CTA writes out[tid]
//
// Use instead:
//     red.global.add.u32 [%rd3], %r5;
//
// References: PTX ISA §8.7.1 (data races), §8.5 (scopes: a CTA barrier does not reach other
// CTAs), atom, red.
#include <set>

#include "RuleContext.h"
#include "flow/ThreadModel.h"
#include "races/RaceSearch.h"

namespace ptx {

void checkCrossCtaGlobalRace(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (!hasAnalyzableBody(function)) continue;
    if (!module.symbols[function.symbol].isEntry) continue;
    std::vector<races::Access> accesses = races::accessesOf(context, f, races::Space::Global);
    bool anyStore = false;
    for (const races::Access& access : accesses) anyStore = anyStore || (access.writes && !access.atomic);
    if (!anyStore) continue;
    flow::ThreadModel& model = context.flows.threadsOfFunction(f);
    if (model.ctaDimensionsRead() == 0) continue;
    bool synchronizesCtas = false;
    for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
      // What the model orders threads at, other than the barrier instructions (a call, an
      // mbarrier operation, a fence, an acquire or release), may order threads of different CTAs.
      constexpr Effects kBarrierInstruction = kCtaBarrier | kBarrierArrive | kClusterBarrier | kWarpBarrier;
      if (model.barrierKindOf(i) == flow::BarrierKind::Cta && !module.factsOf(i).does(kBarrierInstruction)) {
        synchronizesCtas = true;
      }
    }
    if (synchronizesCtas) continue;
    std::set<std::uint32_t> reported;
    for (const races::Witness& w : races::findRaces(context, f, accesses, races::Space::Global)) {
      if (w.first->size != w.second->size) continue;  // RAC003.
      const races::Access& store = w.first->writes ? *w.first : *w.second;
      const races::Access& other = w.first->writes ? *w.second : *w.first;
      const flow::ThreadCoordinates& storer = w.first->writes ? w.firstThread : w.secondThread;
      const flow::ThreadCoordinates& peer = w.first->writes ? w.secondThread : w.firstThread;
      if (!reported.insert(store.instruction).second) continue;
      const InstructionSite& site = module.instructions[store.instruction];
      std::string message =
          concat({"data race in global memory between CTAs: ", races::describeThread(storer, true), " and ",
                  races::describeThread(peer, true), other.writes ? " both store to" : " store to and load from",
                  " the same bytes, and no barrier orders threads of different CTAs"});
      std::vector<RelatedInformation> related;
      if (&store != &other)
        related.push_back({module.instructions[other.instruction].statement, "the conflicting access"});
      context.report("RAC002", site.statement, std::move(message), std::move(related));
    }
  }
}

}  // namespace ptx

// RAC004 cluster-shared-memory-race
//
// What it does: finds two accesses to the same shared-memory bytes by threads of two CTAs of
// one cluster, at least one reaching into the other CTA's shared memory through an address
// from `mapa` (distributed shared memory), at least one writing, with no cluster barrier
// (`barrier.cluster.arrive`/`wait`, `cluster.sync()`) between them. CTA barriers
// (`bar.sync`, `__syncthreads()`) do not order them. Each CTA is taken to be a CTA of a
// 2 x 1 x 1 cluster unless the kernel declares `.reqnctapercluster`; the two CTAs compared
// are ranks 0 and 1, and the rank a `mapa` names is evaluated for each thread.
//
// Why is this bad: a CTA barrier orders only the threads of its own CTA. A store into a
// neighbour's shared memory followed by `__syncthreads()` is not visible to the neighbour's
// threads when they read: they may read the old value, and two CTAs writing the same bytes
// leave whichever lands last (PTX ISA §8.7.1; CUDA C++ Programming Guide, distributed shared
// memory: `cluster.sync()` between the writes and the reads).
//
// Example:
//     mapa.u64 %rd6, %rd5, %r3;           // the neighbour's copy of `box`
//     st.u32 [%rd10], %r9;                // write into it
//     bar.sync 0;
//     ld.shared.u32 %r12, [%r11];         // read our own `box`, which the neighbour writes
//
// Use instead:
//     st.u32 [%rd10], %r9;
//     barrier.cluster.arrive;
//     barrier.cluster.wait;
//     ld.shared.u32 %r12, [%r11];
//
// References: PTX ISA §8.7.1 (data races), mapa, barrier.cluster, §5.1.5 (shared state space:
// the shared memory of other CTAs of the cluster); CUDA C++ Programming Guide, distributed
// shared memory.
#include <set>
#include <string>

#include "RuleContext.h"
#include "flow/ThreadModel.h"
#include "races/RaceSearch.h"

namespace ptx {

void checkClusterSharedMemoryRace(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (!hasAnalyzableBody(function)) continue;
    if (!anyInstructionOf(module, function,
                          [&](const InstructionSite& site) { return module.factsOf(site).is(Family::Mapa); })) {
      continue;
    }
    flow::ThreadModel& model = context.flows.threadsOfFunction(f);
    const auto& cluster = model.launch().cluster;
    if (cluster[0] * cluster[1] * cluster[2] < 2) continue;
    std::vector<races::Access> accesses = races::accessesOf(context, f, races::Space::Cluster);
    bool anyRemote = false;
    for (const races::Access& access : accesses) anyRemote = anyRemote || access.mapa != UINT32_MAX;
    if (!anyRemote) continue;
    std::set<std::uint32_t> reported;
    for (const races::Witness& w : races::findRaces(context, f, accesses, races::Space::Cluster)) {
      auto describe = [](const races::Access& access) {
        std::string kind = access.atomic ? "atomic" : access.writes ? "store" : "load";
        return access.mapa != UINT32_MAX ? kind + " into another CTA's shared memory" : kind;
      };
      auto report = [&](const races::Access& here, const races::Access& other, const flow::ThreadCoordinates& mine,
                        const flow::ThreadCoordinates& theirs) {
        if (!reported.insert(here.instruction).second) return;
        std::string message = concat({"data race in the cluster's shared memory: this ", describe(here), " by ",
                                      races::describeThread(mine, true), " and the ", describe(other), " by ",
                                      races::describeThread(theirs, true),
                                      " touch the same bytes with no cluster barrier between them (a CTA barrier "
                                      "does not order threads of different CTAs)"});
        std::vector<RelatedInformation> related;
        if (&here != &other) related.push_back({module.instructions[other.instruction].statement, "the other access"});
        context.report("RAC004", module.instructions[here.instruction].statement, std::move(message),
                       std::move(related));
      };
      report(*w.first, *w.second, w.firstThread, w.secondThread);
      if (w.first != w.second) report(*w.second, *w.first, w.secondThread, w.firstThread);
    }
  }
}

}  // namespace ptx

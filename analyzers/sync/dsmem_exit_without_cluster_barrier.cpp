// SNC015 dsmem-exit-without-cluster-barrier
//
// What it does: finds an access to another CTA's shared memory (through an address from
// `mapa`) after which the kernel can reach its exit (`ret`, `exit`) with no cluster barrier
// (`barrier.cluster.arrive` + `barrier.cluster.wait`, `cluster.sync()`) between. Any
// mbarrier operation, fence, acquire/release or call on the way is taken to be the
// synchronization the code relies on, and the access is not reported.
//
// Why is this bad: a CTA's shared memory lives only as long as the CTA. Every CTA of the
// cluster runs the same code, so while this CTA reads or writes its neighbour's shared memory,
// the neighbour may already have run past the same point and exited: the access then touches
// memory that is no longer the neighbour's (undefined behaviour; the CUDA programming guide
// asks for a `cluster.sync()` after the last distributed-shared-memory access for this reason).
//
// Example:
//     mapa.u64 %rd6, %rd5, %r3;
//     atom.add.u32 %r7, [%rd6], 1;        // count into the neighbour's histogram
//     ret;
//
// Use instead:
//     atom.add.u32 %r7, [%rd6], 1;
//     barrier.cluster.arrive;
//     barrier.cluster.wait;
//     ret;
//
// References: PTX ISA mapa, barrier.cluster, §5.1.5 (shared memory of the cluster's CTAs);
// CUDA C++ Programming Guide, distributed shared memory (cluster.sync() before exit).
#include <string>

#include "RuleContext.h"
#include "flow/ThreadModel.h"
#include "races/RaceSearch.h"

namespace ptx {

void checkDsmemExitWithoutClusterBarrier(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (!hasAnalyzableBody(function)) continue;
    if (!module.symbols[function.symbol].isEntry) continue;  // A function returns to its caller, which may wait.
    std::vector<std::uint32_t> exits;
    bool anyMapa = false;
    for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
      const InstructionFacts& facts = module.factsOf(i);
      anyMapa = anyMapa || facts.is(Family::Mapa);
      if (facts.does(kReturn | kExit)) exits.push_back(i);
    }
    if (!anyMapa || exits.empty()) continue;
    flow::ThreadModel& model = context.flows.threadsOfFunction(f);
    for (const races::Access& access : races::accessesOf(context, f, races::Space::Cluster)) {
      if (access.mapa == UINT32_MAX) continue;
      for (std::uint32_t exit : exits) {
        if (!model.reachableWithout(access.instruction, exit, flow::BarrierKind::Cluster)) continue;
        context.report("SNC015", module.instructions[access.instruction].statement,
                       "this access reaches into another CTA's shared memory, and the kernel can exit after it with "
                       "no cluster barrier between: the other CTA may already have exited, and its shared memory "
                       "with it; add barrier.cluster.arrive and barrier.cluster.wait (cluster.sync()) before the exit",
                       {{module.instructions[exit].statement, "the exit"}});
        break;
      }
    }
  }
}

}  // namespace ptx

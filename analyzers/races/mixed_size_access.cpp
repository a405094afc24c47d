// RAC003 mixed-size-access
//
// What it does: finds two accesses to shared memory by different threads of one CTA, with
// no barrier between them and at least one a write, whose bytes overlap only in part: a
// 32-bit store and a byte load of one of its bytes, two stores of different widths at
// overlapping addresses. Threads are evaluated concretely, as for RAC001, and the finding
// names the pair.
//
// Why is this bad: beyond being a race, a mixed-size race takes the whole program outside
// the PTX memory model: its axioms do not apply once one exists (PTX ISA §8.7.2), so not
// even the values the race could produce are defined. Use accesses of one size, or order
// them with a barrier.
//
// Example:
//     st.shared.u32 [w], %r1;           // thread 0 writes the word
//     ld.shared.u8 %rs1, [w+1];         // thread 1 reads one of its bytes
//
// Use instead:
//     st.shared.u32 [w], %r1;
//     bar.sync 0;
//     ld.shared.u8 %rs1, [w+1];
//
// References: PTX ISA §8.7.2 (mixed-size data races), §8.7.1.
#include <set>

#include "RuleContext.h"
#include "races/RaceSearch.h"

namespace ptx {

void checkMixedSizeAccess(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (!hasAnalyzableBody(function)) continue;
    std::vector<races::Access> accesses = races::accessesOf(context, f, races::Space::Shared);
    bool sizesDiffer = false;
    for (const races::Access& access : accesses) sizesDiffer = sizesDiffer || access.size != accesses.front().size;
    if (!sizesDiffer) continue;
    const races::SharedMemoryRaces& search = races::sharedMemoryRaces(context, f);
    std::set<std::uint32_t> reported;
    std::string shape = races::assumedBlockShape(context.flows.threadsOfFunction(f).launch());
    for (const races::Witness& w : search.witnesses) {
      if (!w.partial || w.first->size == w.second->size) continue;
      for (int side = 0; side < 2; ++side) {
        const races::Access& here = side == 0 ? *w.first : *w.second;
        const races::Access& other = side == 0 ? *w.second : *w.first;
        if (!reported.insert(here.instruction).second) continue;
        const flow::ThreadCoordinates& mine = side == 0 ? w.firstThread : w.secondThread;
        const flow::ThreadCoordinates& theirs = side == 0 ? w.secondThread : w.firstThread;
        std::string message =
            concat({"mixed-size race in shared memory: this ", std::to_string(here.size), "-byte access by ",
                    races::describeThread(mine, false), " overlaps part of a ", std::to_string(other.size),
                    "-byte access by ", races::describeThread(theirs, false), " with no barrier between them", shape});
        context.report("RAC003", module.instructions[here.instruction].statement, std::move(message),
                       {{module.instructions[other.instruction].statement, "the overlapping access"}});
      }
    }
  }
}

}  // namespace ptx

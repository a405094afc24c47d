// RAC001 shared-memory-race
//
// What it does: finds two accesses to shared memory that two different threads of one CTA
// can make to the same bytes at the same time — at least one of them a write, with no
// barrier (`bar.sync`, `barrier.sync`, or `bar.warp.sync` for threads of one warp) on any
// path between them, and not both atomic or both strong (`.volatile`, `.relaxed`,
// `.acquire`, `.release`). The addresses are evaluated for concrete threads (the first 64
// along x, or the declared `.reqntid`/`.maxntid` shape), so each finding names a pair of
// threads that collide, at both accesses. In a loop with no barrier in its body, the accesses
// of one iteration are compared with those of the next, with the values the loop carries (a
// tree reduction's halving stride) evaluated per iteration. A named barrier with a thread
// count (`bar.sync 1, 64`) orders only the threads that take part in it, and none of them for
// certain when more threads of the declared block take part than its count.
//
// Why is this bad: a data race makes the program's result undefined (PTX ISA §8.7.1): the
// load may see the value before or after the store, and two stores leave either. Threads of
// a warp are not in lockstep since Volta (independent thread scheduling), so warp-synchronous
// code that exchanges values through shared memory races too unless `bar.warp.sync` orders
// it. compute-sanitizer's racecheck finds such races only when a run happens to exhibit them.
//
// Example:
//     shl.b32 %r2, %r1, 2;            // %r1 = %tid.x
//     st.shared.u32 [buf+%r2], %r3;   // s[tid] = v
//     ld.shared.u32 %r4, [%r5+4];     // s[tid + 1]: written by the next thread
//
// Use instead:
//     st.shared.u32 [%r5], %r3;
//     bar.sync 0;
//     ld.shared.u32 %r4, [%r5+4];
//
// References: PTX ISA §8.7.1 (data races), §8.9.4 (barriers synchronize), bar.sync,
// bar.warp.sync; CUDA C++ Programming Guide, independent thread scheduling.
#include <optional>
#include <set>
#include <string>

#include "RuleContext.h"
#include "races/RaceSearch.h"
#include "text/LineIndex.h"

namespace ptx {

void checkSharedMemoryRace(const RuleContext& context) {
  const Module& module = context.module;
  std::optional<LineIndex> lines;  // Built for the first finding.
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (!hasAnalyzableBody(function)) continue;
    const races::SharedMemoryRaces& search = races::sharedMemoryRaces(context, f);
    std::set<std::uint32_t> reported;
    std::string shape;
    if (!search.witnesses.empty()) shape = races::assumedBlockShape(context.flows.threadsOfFunction(f).launch());
    for (const races::Witness& w : search.witnesses) {
      if (w.first->size != w.second->size) continue;  // RAC003.
      auto between = [](const races::Witness& witness) -> std::string {
        if (witness.acrossIterations) {
          return " in successive iterations of a loop with no barrier in it";
        }
        return witness.countTooSmall
                   ? " with only a named barrier between them whose thread count is smaller than the threads of the "
                     "declared block that take part in it, so a phase completes without some of them"
                   : " with no barrier between them";
      };
      auto describe = [](const races::Access& access) {
        return std::string(access.atomic ? "atomic" : access.writes ? "store" : "load");
      };
      auto report = [&](const races::Access& here, const races::Access& other, const flow::ThreadCoordinates& mine,
                        const flow::ThreadCoordinates& theirs) {
        if (!reported.insert(here.instruction).second) return;
        const InstructionSite& site = module.instructions[here.instruction];
        const InstructionSite& otherSite = module.instructions[other.instruction];
        std::string message;
        if (&here == &other) {
          message = concat({"data race in shared memory: ", races::describeThread(mine, false), " and ",
                            races::describeThread(theirs, false), " both execute this ", describe(here),
                            " on the same bytes", between(w), shape});
          context.report("RAC001", site.statement, std::move(message));
        } else {
          if (!lines) lines.emplace(context.text);
          std::uint32_t line = lines->lineOf(otherSite.statement.begin) + 1;
          message =
              concat({"data race in shared memory: this ", describe(here), " by ", races::describeThread(mine, false),
                      " and the ", describe(other), " at line ", std::to_string(line), " by ",
                      races::describeThread(theirs, false), " touch the same bytes", between(w), shape});
          context.report("RAC001", site.statement, std::move(message),
                         {{otherSite.statement, concat({"the conflicting ", describe(other)})}});
        }
      };
      report(*w.first, *w.second, w.firstThread, w.secondThread);
      if (w.first != w.second) report(*w.second, *w.first, w.secondThread, w.firstThread);
    }
  }
}

}  // namespace ptx

// SNC012 red-fence-acquire
//
// What it does: finds a `red` (an atomic without a result) followed, with no load or atomic
// of its own between them, by a fence (`fence.acquire`, `fence.acq_rel`, `fence.sc`,
// `membar`) after which the thread loads global memory — the shape of code that treats the
// reduction plus the fence as an acquire of data other threads published.
//
// Why is this bad: an acquire needs a read: a strong load or an atomic that returns a value,
// followed by the fence (PTX ISA §8.8, acquire patterns). `red` reads nothing back, so the
// fence after it has no observed write to synchronize with, and the loads after it may see
// stale data. CUDA's `atomicAdd` whose result is unused compiles to `atom` in PTX, which does
// read; it is `red` written by hand (or a `red.release`) that falls into this.
//
// Example:
//     red.release.gpu.global.add.u32 [flag], 1;
//     fence.acquire.gpu;
//     ld.global.u32 %r1, [data];
//
// Use instead:
//     atom.acq_rel.gpu.global.add.u32 %r0, [flag], 1;
//     ld.global.u32 %r1, [data];
//
// References: PTX ISA §8.8 (release and acquire patterns; a red followed by fence.acquire is
// not an acquire pattern), red, atom, fence.
#include <string>

#include "RuleContext.h"

namespace ptx {
namespace {

constexpr Effects kAnyBarrier = kCtaBarrier | kBarrierArrive | kClusterBarrier | kWarpBarrier;

// A load, store or atomic of one address (not a copy or a matrix access).
bool isPlainAccess(const InstructionFacts& facts) {
  return facts.is(Family::Ld) || facts.is(Family::Ldu) || facts.is(Family::Atom) || facts.is(Family::St) ||
         facts.is(Family::Red);
}

}  // namespace

void checkRedFenceAcquire(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (!hasAnalyzableBody(function)) continue;
    std::uint32_t end = function.firstInstruction + function.instructionCount;
    for (std::uint32_t i = function.firstInstruction; i < end; ++i) {
      const InstructionSite& red = module.instructions[i];
      if (red.inDamagedCode || !module.factsOf(red).is(Family::Red)) continue;
      // The next memory instruction or fence after the red, in the same straight line.
      std::uint32_t fence = UINT32_MAX;
      for (std::uint32_t j = i + 1; j < end; ++j) {
        const InstructionSite& next = module.instructions[j];
        const InstructionFacts& facts = module.factsOf(next);
        if (next.isCall || facts.does(kBranch | kReturn | kExit | kAnyBarrier) || isPlainAccess(facts)) break;
        if (facts.is(Family::Membar)) {
          fence = j;
          break;
        }
        if (facts.is(Family::Fence)) {
          Semantics semantics = facts.semantics;
          bool acquires = semantics == Semantics::Acquire || semantics == Semantics::AcqRel || semantics == Semantics::Sc;
          if (acquires) fence = j;
          break;
        }
      }
      if (fence == UINT32_MAX) continue;
      // A plain global load follows the fence before any other synchronization.
      bool loadsAfter = false;
      for (std::uint32_t j = fence + 1; j < end && !loadsAfter; ++j) {
        const InstructionSite& next = module.instructions[j];
        const InstructionFacts& facts = module.factsOf(next);
        if (next.isCall || facts.does(kReturn | kExit | kAnyBarrier) || facts.is(Family::Atom) ||
            facts.is(Family::Fence) || facts.is(Family::Membar)) {
          break;
        }
        if (facts.is(Family::Ld)) {
          bool weak = facts.semantics == Semantics::None;  // Not .acquire, .relaxed or .volatile.
          if (weak && facts.space == StateSpace::Global) {
            loadsAfter = true;
          } else if (!weak) {
            break;
          }
        }
      }
      if (!loadsAfter) continue;
      const InstructionSite& site = module.instructions[fence];
      context.report("SNC012", site.statement,
                   "this fence follows a 'red', which reads nothing back: it is not an acquire, and the loads after it "
                   "are not ordered after other threads' writes (use an atom that returns a value, or ld.acquire)");
      context.out.back().related.push_back({red.statement, "the reduction"});
    }
  }
}

}  // namespace ptx

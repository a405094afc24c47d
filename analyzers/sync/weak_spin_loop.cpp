// SNC010 weak-spin-loop
//
// What it does: finds a short loop (at most 16 instructions) that waits on memory with a
// plain global or shared load: the load's address does not change from one iteration to the
// next (its register is set before the loop), and a branch of the loop tests the loaded
// value — the shape of `while (*flag == 0) {}` — when the load is weak (no `.volatile`,
// `.relaxed`, `.acquire`) and the loop stores nothing to memory itself.
//
// Why is this bad: a weak load may be served from a register or a stale cache line again and
// again: nothing obliges it to see another thread's store, so the loop may spin forever. And
// the flag's load races with the store that sets it (PTX ISA §8.7.1): the pair is not
// morally strong. Load the flag with `ld.acquire` (or `ld.relaxed` plus a fence), at the scope
// that includes the writer.
//
// Example:
//   WAIT:
//     ld.global.u32 %r1, [%rd1];
//     setp.eq.u32 %p1, %r1, 0;
//     @%p1 bra WAIT;
//
// Use instead:
//   WAIT:
//     ld.acquire.gpu.global.u32 %r1, [%rd1];
//     setp.eq.u32 %p1, %r1, 0;
//     @%p1 bra WAIT;
//
// References: PTX ISA §8.7.1 (data races, morally strong operations), §8.8 (acquire
// patterns), ld (.relaxed, .acquire, .volatile).
#include <string>

#include "RuleContext.h"
#include "flow/ThreadModel.h"

namespace ptx {
namespace {

// Whether an instruction in a loop makes it more than a wait on a load: it writes memory,
// synchronizes, or starts a copy.
bool doesMoreThanWait(const InstructionFacts& facts) {
  switch (facts.family) {
    case Family::St: case Family::Atom: case Family::Red: case Family::Bar: case Family::Barrier:
    case Family::Fence: case Family::Membar: case Family::Mbarrier: case Family::Cp: case Family::Sust:
    case Family::Sured:
      return true;
    default:
      return false;
  }
}

}  // namespace

void checkWeakSpinLoop(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (!hasAnalyzableBody(function)) continue;
    if (!anyInstructionOf(module, function,
                          [&](const InstructionSite& site) { return module.factsOf(site).does(kBranch); })) {
      continue;
    }
    flow::FunctionFlow& flow = context.flows.flowOfFunction(f);
    flow::ThreadModel& model = context.flows.threadsOfFunction(f);
    const std::vector<flow::BasicBlock>& blocks = flow.blocks();
    for (const flow::NaturalLoop& loop : model.naturalLoops()) {
      const std::vector<bool>& body = loop.body;
      // A wait is a short loop: the load, its test, perhaps a back-off and a counter.
      std::uint32_t size = 0;
      for (std::uint32_t c = 0; c < blocks.size(); ++c) {
        if (body[c]) size += blocks[c].end - blocks[c].first;
      }
      if (size > 16) continue;
      bool stores = false;
      for (std::uint32_t c = 0; c < blocks.size() && !stores; ++c) {
        if (!body[c]) continue;
        for (std::uint32_t i = blocks[c].first; i < blocks[c].end && !stores; ++i) {
          const InstructionSite& site = module.instructions[i];
          stores = site.isCall || doesMoreThanWait(module.factsOf(site));
        }
      }
      if (stores) continue;
      auto inLoop = [&](std::uint32_t instruction) { return body[flow.blockOf(instruction)]; };
      // Whether a register read at `at` comes, within a few steps, from the load `load`.
      auto derivesFrom = [&](auto&& self, std::uint32_t at, const InstructionOperand& operand, std::uint32_t load,
                             int depth) -> bool {
        if (depth > 4) return false;
        auto key = flow.registerOf(operand);
        if (!key) return false;
        for (std::uint32_t d : flow.reachingDefinitions(at, *key)) {
          std::uint32_t definer = flow.definitions()[d].instruction;
          if (definer == load) return true;
          if (!inLoop(definer)) continue;
          const InstructionSite& site = module.instructions[definer];
          for (std::uint32_t o = site.firstOperand + 1; o < site.firstOperand + site.operandCount; ++o) {
            if (self(self, definer, module.operands[o], load, depth + 1)) return true;
          }
        }
        return false;
      };
      for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount;
           ++i) {
        if (!inLoop(i)) continue;
        const InstructionSite& load = module.instructions[i];
        const InstructionFacts& facts = module.factsOf(load);
        if (load.inDamagedCode || !facts.is(Family::Ld) || load.operandCount != 2) continue;
        // A weak load (not .volatile, .relaxed or .acquire), and not through the read-only
        // cache (.nc), of global or shared memory.
        bool weak = facts.semantics == Semantics::None && !facts.has(Modifier::Nc);
        if (!weak || (facts.space != StateSpace::Global && facts.space != StateSpace::Shared)) continue;
        const InstructionOperand& address = module.operands[load.firstOperand + 1];
        auto base = flow.baseRegisterOf(address);
        bool invariant = true;
        if (base) {
          if (auto key = flow.registerOf(*base)) invariant = !model.definedInLoop(loop, i, *key);
        }
        if (!invariant) continue;
        // A branch of the loop tests the loaded value.
        bool tested = false;
        for (std::uint32_t j = function.firstInstruction;
             j < function.firstInstruction + function.instructionCount && !tested; ++j) {
          if (!inLoop(j)) continue;
          const InstructionSite& branch = module.instructions[j];
          if (!module.factsOf(branch).does(kBranch)) continue;
          if (auto guard = flow.guardRegisterOf(branch)) tested = derivesFrom(derivesFrom, j, *guard, i, 0);
        }
        if (!tested) continue;
        context.report("SNC010", load.statement,
                     "this loop waits on a plain load of an unchanging address: a weak load need not ever see "
                     "another thread's store, and it races with it (use ld.acquire, or ld.relaxed with a fence)");
        break;
      }
    }
  }
}

}  // namespace ptx

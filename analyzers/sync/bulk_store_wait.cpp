// SNC007 bulk-store-wait
//
// What it does: follows bulk copies out of shared memory (`cp.async.bulk.global.shared::cta`
// and the tensor and reduce forms) through `cp.async.bulk.commit_group` and
// `cp.async.bulk.wait_group[.read] N`, and reports an ordinary store into bytes a copy
// reads while the copy may still be reading them (the addresses must prove the overlap), and a copy still pending when the thread
// exits, on some path (the copy is usually issued by one thread, which the others' paths
// skip).
//
// Why is this bad: a bulk copy reads its shared-memory source asynchronously, until
// `cp.async.bulk.wait_group.read` says the reads are done. Overwriting the buffer earlier
// changes what the copy sends; exiting earlier ends the CTA whose shared memory the copy is
// still reading, and the transfer is undefined.
//
// Example:
//     cp.async.bulk.global.shared::cta.bulk_group [%rd1], [buf], 256;
//     cp.async.bulk.commit_group;
//     st.shared.u32 [buf], %r1;
//
// Use instead:
//     cp.async.bulk.global.shared::cta.bulk_group [%rd1], [buf], 256;
//     cp.async.bulk.commit_group;
//     cp.async.bulk.wait_group.read 0;
//     st.shared.u32 [buf], %r1;
//
// References: PTX ISA cp.async.bulk, cp.async.bulk.commit_group, cp.async.bulk.wait_group
// (.read: the source may be reused once it returns); §8.9.1.1.
#include <string>
#include <vector>

#include "RuleContext.h"
#include "flow/ThreadModel.h"
#include "sync/BlockStates.h"
#include "sync/ByteOverlap.h"

namespace ptx {
namespace {

// The bulk copies in flight.
using InFlight = sync::AsyncGroups<std::uint32_t>;

enum class BulkStep { None, Copy, Commit, Wait };

BulkStep stepOf(const RuleContext& context, const InstructionSite& site) {
  const InstructionFacts& facts = context.module.factsOf(site);
  // The groups of the bulk copies (cp.async.bulk); cp.async has groups of its own.
  if (!facts.is(Family::Cp) || !facts.has(Modifier::Bulk)) return BulkStep::None;
  if (facts.does(kCommitsGroup)) return BulkStep::Commit;
  if (facts.does(kWaitsForGroup)) return BulkStep::Wait;
  // A copy from shared memory to global memory; one that completes through an mbarrier
  // instead is not in a group.
  bool fromShared = facts.secondSpace == StateSpace::Shared || facts.secondSpace == StateSpace::SharedCluster;
  if (facts.does(kCompletesInBulkGroup) && facts.space == StateSpace::Global && fromShared) return BulkStep::Copy;
  return BulkStep::None;
}

// Whether the bytes a store writes provably overlap what a bulk copy reads (a store into
// another region of the same buffer, such as a scratch area beside the tile a copy sends, is
// no finding).
bool provablyOverlaps(const RuleContext& context, std::size_t function, std::uint32_t copy, std::uint32_t store) {
  const Module& module = context.module;
  const InstructionSite& storeSite = module.instructions[store];
  auto storeSize = module.factsOf(storeSite).accessBytes();
  auto copySize = sync::bulkCopyBytes(context, copy);
  if (!storeSize || !copySize) return false;
  return sync::provablyOverlap(context, function,
                               {copy, &module.operands[module.instructions[copy].firstOperand + 1], *copySize},
                               {store, &module.operands[storeSite.firstOperand], *storeSize});
}

// Whether every thread that issues the copy (among the first 64 of the block, under two
// seeds) also executes a later `cp.async.bulk.wait_group.read 0` (or `wait_group 0`): the
// path to the exit that skips it is one no thread takes (the copy and the wait sit under
// the same condition, tested twice).
bool waitedByIssuingThreads(const RuleContext& context, std::size_t function, std::uint32_t copy) {
  const Module& module = context.module;
  const FunctionInfo& info = module.functions[function];
  flow::ThreadModel& model = context.flows.threadsOfFunction(function);
  std::vector<std::uint32_t> waits;
  for (std::uint32_t i = info.firstInstruction; i < info.firstInstruction + info.instructionCount; ++i) {
    const InstructionSite& site = module.instructions[i];
    if (stepOf(context, site) != BulkStep::Wait || site.operandCount == 0) continue;
    auto n = context.flows.flowOfFunction(function).valueOf(i, module.operands[site.firstOperand]).constantValue();
    if (n && *n == 0 && model.reachableWithout(copy, i, flow::BarrierKind::None)) waits.push_back(i);
  }
  if (waits.empty()) return false;
  bool anyIssuer = false;
  for (std::uint64_t seed : flow::kProofSeeds) {
    for (std::uint32_t x = 0; x < 64; ++x) {
      flow::ThreadCoordinates thread;
      thread.tid = {x, 0, 0};
      auto issues = model.executes(copy, thread, seed, flow::kVariesInCta);
      if (!issues) return false;
      if (!*issues) continue;
      anyIssuer = true;
      bool waited = false;
      for (std::uint32_t wait : waits) {
        auto executes = model.executes(wait, thread, seed, flow::kVariesInCta);
        if (!executes) return false;
        waited = waited || *executes;
      }
      if (!waited) return false;
    }
  }
  return anyIssuer;
}

}  // namespace

void checkBulkStoreWait(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (!hasAnalyzableBody(function)) continue;
    if (!anyInstructionOf(module, function,
                          [&](const InstructionSite& site) { return stepOf(context, site) == BulkStep::Copy; })) {
      continue;
    }
    flow::FunctionFlow& flow = context.flows.flowOfFunction(f);
    std::vector<bool> reported(function.instructionCount, false);
    auto report = [&](std::uint32_t at, std::string message, std::uint32_t copy) {
      if (reported[at - function.firstInstruction]) return;
      reported[at - function.firstInstruction] = true;
      context.report("SNC007", module.instructions[at].statement, std::move(message));
      if (copy != at) context.out.back().related.push_back({module.instructions[copy].statement, "the bulk copy"});
    };
    sync::forPathStates<InFlight>(
        sync::Paths::Some, flow.blocks(),
        [&](std::uint32_t i, InFlight& state) {
          const InstructionSite& site = module.instructions[i];
          switch (stepOf(context, site)) {
            case BulkStep::Copy:
              state.open.push_back(i);
              break;
            case BulkStep::Commit:
              state.commit();
              break;
            case BulkStep::Wait:
              state.waitKeeping(site.operandCount > 0
                                    ? flow.valueOf(i, module.operands[site.firstOperand]).constantValue()
                                    : std::nullopt);
              break;
            case BulkStep::None:
              if (site.isCall) state = InFlight{};
              break;
          }
        },
        [&](std::uint32_t i, const InFlight& before) {
          if (before.empty()) return;
          const InstructionSite& site = module.instructions[i];
          const InstructionFacts& facts = module.factsOf(site);
          std::vector<std::uint32_t> pending = before.pending();
          if (facts.does(kReturn | kExit) && !site.isGuarded() && function.symbol < module.symbols.size() &&
              module.symbols[function.symbol].isEntry) {
            for (std::uint32_t copy : pending) {
              if (waitedByIssuingThreads(context, f, copy)) continue;
              report(copy,
                     "the kernel can exit while this bulk copy still reads shared memory: no "
                     "cp.async.bulk.wait_group.read covers it before the exit",
                     copy);
            }
            return;
          }
          if (!facts.is(Family::St) || site.operandCount < 2 || facts.space != StateSpace::Shared) return;
          SymbolId written = flow.addressOf(i, module.operands[site.firstOperand]).base;
          if (written == kNoSymbol) return;
          for (std::uint32_t copy : pending) {
            if (!provablyOverlaps(context, f, copy, i)) continue;
            report(i,
                   concat({"this store overwrites '", module.symbols[written].name,
                           "' while a bulk copy may still be reading it: no cp.async.bulk.wait_group.read covers "
                           "the copy first"}),
                   copy);
            break;
          }
        });
  }
}

}  // namespace ptx

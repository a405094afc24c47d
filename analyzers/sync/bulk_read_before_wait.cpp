// SNC013 bulk-read-before-wait
//
// What it does: follows each bulk copy into shared memory that completes on an mbarrier
// (`cp.async.bulk{.tensor}.shared::cluster... .mbarrier::complete_tx::bytes [dst], ..., [bar]`)
// and reports a load or store of the destination variable, or a `wgmma.mma_async` whose
// descriptor points into it, reached on some path from the copy with no wait
// (`mbarrier.try_wait`/`test_wait`) on that copy's barrier in between — and with no wait on
// that barrier earlier on every path to the access either. The second condition keeps
// pipelines quiet: a loop that waits for stage k, issues the copy for stage k+1 and then
// reads stage k reads a slot the copy does not write, which the analysis cannot tell apart
// by address; a wait before the access shows the code is waiting for something.
//
// Why is this bad: the copy writes the destination asynchronously; only a wait that sees the
// barrier's phase complete (all the bytes announced by expect_tx arrived) makes the data
// visible. Reading earlier, or after waiting on a different barrier, reads whatever was there
// before: stale tiles that change from run to run, which compute-sanitizer's racecheck does
// not attribute to the copy.
//
// Example:
//     @%p0 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [%rd1], 256, [bar];
//     ld.shared.u32 %r5, [buf+%r4];
//
// Use instead:
//     @%p0 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [%rd1], 256, [bar];
//   WAIT:
//     mbarrier.try_wait.parity.shared::cta.b64 %p1, [bar], 0;
//     @!%p1 bra WAIT;
//     ld.shared.u32 %r5, [buf+%r4];
//
// References: PTX ISA cp.async.bulk, cp.async.bulk.tensor (completion mechanisms),
// mbarrier.test_wait/try_wait; CUDA C++ Programming Guide, TMA (wait on the barrier before
// reading the tile).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "RuleContext.h"
#include "alignment/AddressAlignment.h"
#include "sync/BlockStates.h"
#include "sync/ByteOverlap.h"
#include "sync/MbarrierOps.h"
#include "sync/SharedOperands.h"

namespace ptx {
namespace {

struct PendingCopy {
  SymbolId destination = kNoSymbol;
  SymbolId barrier = kNoSymbol;
  std::uint32_t copy = 0;  // The instruction.
  auto operator<=>(const PendingCopy&) const = default;
};

struct CopyState {
  std::set<PendingCopy> pending;  // Copies some path brings here unwaited (any thread's path).
  std::set<SymbolId> waited;      // Barriers waited on along every path here.
  bool operator==(const CopyState&) const = default;
  std::size_t weight() const { return pending.size(); }
  void merge(const CopyState& other) {
    pending.insert(other.pending.begin(), other.pending.end());
    std::set<SymbolId> both;
    std::set_intersection(waited.begin(), waited.end(), other.waited.begin(), other.waited.end(),
                          std::inserter(both, both.begin()));
    waited = std::move(both);
  }
};

}  // namespace

void checkBulkReadBeforeWait(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (!hasAnalyzableBody(function)) continue;
    if (!anyInstructionOf(module, function, [&](const InstructionSite& site) {
          auto op = sync::mbarrierOpOf(context, site);
          return op && op->copyDestination;
        })) {
      continue;
    }
    flow::FunctionFlow& flow = context.flows.flowOfFunction(f);
    auto symbolAt = [&](std::uint32_t i, std::uint32_t operand) {
      return flow.addressOf(i, module.operands[operand]).base;
    };
    // The shared variables an instruction reads or writes as data (not as a barrier): a load
    // or store's address, a wgmma's descriptors.
    auto accessedSymbols = [&](std::uint32_t i) {
      std::set<SymbolId> symbols;
      const InstructionSite& site = module.instructions[i];
      const InstructionFacts& facts = module.factsOf(site);
      if (auto access = memoryAccessOf(context, site)) {
        if (!facts.does(kAtomic)) {
          SymbolId symbol = symbolAt(i, site.firstOperand + access->addressIndex);
          if (symbol != kNoSymbol) symbols.insert(symbol);
        }
      } else if (facts.is(Family::Ldmatrix) && site.operandCount >= 2) {
        SymbolId symbol = symbolAt(i, site.firstOperand + 1);
        if (symbol != kNoSymbol) symbols.insert(symbol);
      } else {
        for (std::uint32_t descriptor : sync::wgmmaDescriptorOperands(context, site)) {
          auto fed = sync::sharedSymbolsFeeding(context, flow, i, module.operands[descriptor]);
          symbols.insert(fed.begin(), fed.end());
        }
      }
      return symbols;
    };
    // A load or store must provably touch the bytes the copy writes (Triton keeps every tile,
    // barrier and scratch area in one array); a wgmma's descriptors are matched by variable.
    auto loadOrStoreHits = [&](std::uint32_t copy, std::uint32_t i) {
      const InstructionSite& site = module.instructions[i];
      auto access = memoryAccessOf(context, site);
      if (!access) return true;
      auto size = access->facts.accessBytes();
      auto op = sync::mbarrierOpOf(context, module.instructions[copy]);
      auto copySize = sync::bulkCopyBytes(context, copy);
      if (!size || !op || !op->copyDestination || !copySize) return false;
      return sync::provablyOverlap(context, f, {copy, &module.operands[*op->copyDestination], *copySize},
                                   {i, &module.operands[site.firstOperand + access->addressIndex], *size});
    };
    std::vector<bool> reported(function.instructionCount, false);
    sync::forPathStates<CopyState>(
        sync::Paths::Merge, flow.blocks(),
        [&](std::uint32_t i, CopyState& state) {
          const InstructionSite& site = module.instructions[i];
          if (site.isCall) {
            state.pending.clear();
            return;
          }
          auto op = sync::mbarrierOpOf(context, site);
          if (!op) return;
          SymbolId barrier = symbolAt(i, op->barrier);
          if (barrier == kNoSymbol) return;
          if (op->action == sync::MbarrierAction::Wait || op->action == sync::MbarrierAction::Init ||
              op->action == sync::MbarrierAction::Inval) {
            std::erase_if(state.pending, [&](const PendingCopy& copy) { return copy.barrier == barrier; });
            if (op->action == sync::MbarrierAction::Wait) state.waited.insert(barrier);
          } else if (op->copyDestination) {
            SymbolId destination = symbolAt(i, *op->copyDestination);
            if (destination != kNoSymbol) state.pending.insert({destination, barrier, i});
          }
        },
        [&](std::uint32_t i, const CopyState& before) {
          if (before.pending.empty() || reported[i - function.firstInstruction]) return;
          std::set<SymbolId> accessed = accessedSymbols(i);
          for (const PendingCopy& copy : before.pending) {
            if (!accessed.contains(copy.destination) || before.waited.contains(copy.barrier)) continue;
            if (!loadOrStoreHits(copy.copy, i)) continue;
            reported[i - function.firstInstruction] = true;
            context.report(
                "SNC013", module.instructions[i].statement,
                concat({"'", module.symbols[copy.destination].name,
                        "' is accessed here while a bulk copy into it may still be in flight: no wait on '",
                        module.symbols[copy.barrier].name, "', the barrier the copy completes on, comes between them"}),
                {{module.instructions[copy.copy].statement, "the bulk copy"}});
            return;
          }
        });
  }
}

}  // namespace ptx

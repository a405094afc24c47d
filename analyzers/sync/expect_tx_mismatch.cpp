// SNC009 expect-tx-mismatch
//
// What it does: adds up, along the paths to each wait on an mbarrier, the bytes announced
// with `mbarrier.arrive.expect_tx` / `mbarrier.expect_tx` and the bytes of the bulk copies
// that complete on that barrier (`cp.async.bulk ... .mbarrier::complete_tx::bytes` with a
// literal or constant size, `mbarrier.complete_tx`), and reports the expect_tx when the two
// totals are both known and differ. It counts only when the announcements and the copies run
// in the same threads (so one thread announcing the bytes that four threads copy is not
// miscounted), and skips functions with multicast copies or cluster-wide barrier traffic,
// whose bytes come from other CTAs. Tensor copies, whose box lies in the tensor map, make the
// total unknown.
//
// Why is this bad: the phase completes when the pending arrivals reach zero and the
// transaction count returns to zero. Announce more bytes than arrive and the phase never
// completes: every waiter spins forever. Announce fewer and the count goes negative with the
// rest of the bytes still in flight: the phase may complete before the data is there.
//
// Example:
//     mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 256;
//     cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [%rd1], 128, [bar];
//
// Use instead:
//     mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 128;
//     cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [%rd1], 128, [bar];
//
// References: PTX ISA mbarrier (tx-count, phase completion), mbarrier.expect_tx,
// mbarrier.arrive (.expect_tx), cp.async.bulk (complete_tx::bytes).
#include <map>
#include <string>
#include <vector>

#include "RuleContext.h"
#include "flow/ThreadModel.h"
#include "sync/BlockStates.h"
#include "sync/MbarrierOps.h"

namespace ptx {
namespace {

constexpr std::uint32_t kNoInstruction = UINT32_MAX;

struct Transactions {
  std::uint32_t firstExpect = kNoInstruction;  // The first announcement on this path.
  std::uint64_t expected = 0;
  std::uint64_t copied = 0;
  std::uint32_t copies = 0;
  bool known = true;
  bool operator==(const Transactions&) const = default;
};

struct Ledger {
  std::map<SymbolId, Transactions> barriers;  // Since the last wait on each.
  bool operator==(const Ledger&) const = default;
  std::size_t weight() const { return barriers.size(); }
  // A barrier one path brings and another does not is kept (one thread's path); two paths
  // that disagree on it make it unknown.
  void merge(const Ledger& other) {
    for (const auto& [symbol, theirs] : other.barriers) {
      auto [it, inserted] = barriers.emplace(symbol, theirs);
      if (!inserted && !(it->second == theirs)) it->second.known = false;
    }
  }
};

}  // namespace

void checkExpectTxMismatch(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (!hasAnalyzableBody(function)) continue;
    bool expects = false, crossCta = false;
    for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
      const InstructionSite& site = module.instructions[i];
      auto op = sync::mbarrierOpOf(context, site);
      if (op && op->expects) expects = true;
      if (op && op->multicast) crossCta = true;
      const InstructionFacts& facts = module.factsOf(site);
      if (facts.is(Family::Mapa) || facts.does(kClusterBarrier)) crossCta = true;
      if (op && facts.space == StateSpace::SharedCluster && op->action != sync::MbarrierAction::CompleteTx) {
        crossCta = true;  // An mbarrier operation on a peer CTA's barrier.
      }
    }
    if (!expects || crossCta) continue;
    flow::FunctionFlow& flow = context.flows.flowOfFunction(f);
    flow::ThreadModel& model = context.flows.threadsOfFunction(f);
    // Whether two instructions run for the same threads of a CTA, as far as the model can
    // tell from a sample of threads.
    auto sameThreads = [&](std::uint32_t a, std::uint32_t b) {
      for (std::uint32_t x : {0u, 1u, 2u, 31u, 32u, 63u}) {
        flow::ThreadCoordinates thread;
        thread.tid = {x, 0, 0};
        auto runsA = model.executes(a, thread, 0x5a, flow::kVariesInCta);
        auto runsB = model.executes(b, thread, 0x5a, flow::kVariesInCta);
        if (!runsA || !runsB || *runsA != *runsB) return false;
        auto guardA = flow.guardRegisterOf(module.instructions[a]);
        auto guardB = flow.guardRegisterOf(module.instructions[b]);
        if (guardA.has_value() != guardB.has_value()) return false;
        if (guardA) {
          auto valueA = model.evaluate(a, *guardA, thread, 0x5a);
          auto valueB = model.evaluate(b, *guardB, thread, 0x5a);
          if (!valueA || !valueB) return false;
          bool takenA = (*valueA != 0) != module.instructions[a].guardNegated;
          bool takenB = (*valueB != 0) != module.instructions[b].guardNegated;
          if (takenA != takenB) return false;
        }
      }
      return true;
    };
    auto constantOf = [&](std::uint32_t i, std::optional<std::uint32_t> operand) -> std::optional<std::uint64_t> {
      if (!operand) return std::nullopt;
      return flow.valueOf(i, module.operands[*operand]).constantValue();
    };
    std::vector<bool> reported(function.instructionCount, false);
    sync::forPathStates<Ledger>(
        sync::Paths::Merge, flow.blocks(),
        [&](std::uint32_t i, Ledger& state) {
          const InstructionSite& site = module.instructions[i];
          if (site.isCall) {
            state.barriers.clear();
            return;
          }
          auto op = sync::mbarrierOpOf(context, site);
          if (!op) return;
          SymbolId barrier = flow.addressOf(i, module.operands[op->barrier]).base;
          if (barrier == kNoSymbol) return;
          if (op->action == sync::MbarrierAction::Wait || op->action == sync::MbarrierAction::Init ||
              op->action == sync::MbarrierAction::Inval) {
            state.barriers.erase(barrier);
            return;
          }
          bool completes = op->action == sync::MbarrierAction::CompleteTx;
          if (!op->expects && !completes) return;
          Transactions& ledger = state.barriers[barrier];
          std::optional<std::uint64_t> bytes = constantOf(i, op->copyDestination ? op->copySize : op->txCount);
          if (!bytes) ledger.known = false;
          if (op->expects) {
            if (ledger.firstExpect == kNoInstruction) {
              ledger.firstExpect = i;
            } else if (!sameThreads(ledger.firstExpect, i)) {
              ledger.known = false;
            }
            if (bytes) ledger.expected += *bytes;
          } else {
            if (ledger.firstExpect != kNoInstruction && !sameThreads(ledger.firstExpect, i)) ledger.known = false;
            if (bytes) ledger.copied += *bytes;
            ++ledger.copies;
          }
        },
        [&](std::uint32_t i, const Ledger& before) {
          auto op = sync::mbarrierOpOf(context, module.instructions[i]);
          if (!op || op->action != sync::MbarrierAction::Wait) return;
          SymbolId barrier = flow.addressOf(i, module.operands[op->barrier]).base;
          auto it = before.barriers.find(barrier);
          if (it == before.barriers.end()) return;
          const Transactions& ledger = it->second;
          if (!ledger.known || ledger.firstExpect == kNoInstruction || ledger.copies == 0 ||
              ledger.expected == ledger.copied || reported[ledger.firstExpect - function.firstInstruction]) {
            return;
          }
          reported[ledger.firstExpect - function.firstInstruction] = true;
          bool tooMany = ledger.expected > ledger.copied;
          context.report(
              "SNC009", module.instructions[ledger.firstExpect].statement,
              concat({"'", module.symbols[barrier].name, "' is told to expect ", std::to_string(ledger.expected),
                      " bytes, but the copies completing on it before this wait bring ", std::to_string(ledger.copied),
                      ": ",
                      tooMany ? "the phase never completes and the wait spins forever"
                              : "the phase can complete while bytes are still arriving"}),
              {{module.instructions[i].statement, "the wait"}});
        });
  }
}

}  // namespace ptx

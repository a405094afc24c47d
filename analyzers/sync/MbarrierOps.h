// MbarrierOps: what an instruction does to an mbarrier object, for the rules that follow
// barriers' phases and transaction counts (SNC005, SNC009, SNC013, SNC014).
//
// The shapes (PTX ISA, mbarrier and cp.async.bulk):
//   mbarrier.init...               [bar], count
//   mbarrier.arrive{.expect_tx}... state, [bar]{, count | txCount}
//   mbarrier.expect_tx...          [bar], txCount
//   mbarrier.complete_tx...        [bar], txCount
//   mbarrier.test_wait/try_wait{.parity}... done, [bar], state | parity{, hint}
//   cp.async.bulk{.tensor}... .mbarrier::complete_tx::bytes [dst], [src | tensorMap, coords]{, size}, [bar]{, ...}
//   cp.async.mbarrier.arrive...    [bar]
#pragma once

#include <cstdint>
#include <optional>

#include "RuleContext.h"

namespace ptx::sync {

enum class MbarrierAction : std::uint8_t {
  Init,        // mbarrier.init
  Inval,       // mbarrier.inval
  Arrive,      // mbarrier.arrive (with .expect_tx: also ExpectTx), arrive_drop, cp.async.mbarrier.arrive
  ExpectTx,    // mbarrier.expect_tx
  CompleteTx,  // mbarrier.complete_tx, or a bulk copy that completes its bytes on the barrier
  Wait,        // mbarrier.test_wait / try_wait
  Other,       // pending_count and the like
};

struct MbarrierOp {
  MbarrierAction action = MbarrierAction::Other;
  std::uint32_t barrier = 0;  // Index into Module::operands: the `[bar]` address operand.
  // Arrive with .expect_tx, ExpectTx, CompleteTx (explicit): the byte count operand.
  std::optional<std::uint32_t> txCount;
  bool arrives = false;  // Counts an arrival (arrive, arrive.expect_tx, arrive_drop, cp.async.mbarrier.arrive).
  bool expects = false;  // Raises the expected transaction count (arrive.expect_tx, expect_tx).
  bool parity = false;   // Wait: the last operand is a phase parity, not a state token.
  std::optional<std::uint32_t> waitOperand;  // Wait: the state or parity operand.
  // A bulk copy (CompleteTx): its destination address operand, and its size operand when
  // the copy spells one (not for tensor copies, whose box is in the tensor map).
  std::optional<std::uint32_t> copyDestination;
  std::optional<std::uint32_t> copySize;
  bool multicast = false;  // A bulk copy to several CTAs of a cluster.
};

std::optional<MbarrierOp> mbarrierOpOf(const RuleContext& context, const InstructionSite& site);

}  // namespace ptx::sync

#include "sync/MbarrierOps.h"

namespace ptx::sync {

std::optional<MbarrierOp> mbarrierOpOf(const RuleContext& context, const InstructionSite& site) {
  if (site.inDamagedCode || site.isCall || site.operandCount == 0) return std::nullopt;
  const Module& module = context.module;
  const InstructionFacts& facts = module.factsOf(site);
  auto operand = [&](std::uint32_t k) -> const InstructionOperand& { return module.operands[site.firstOperand + k]; };
  auto isAddress = [&](std::uint32_t k) { return k < site.operandCount && operand(k).shape == OperandShape::Address; };
  MbarrierOp op;
  if (facts.is(Family::Mbarrier)) {
    // The barrier is the first address operand.
    std::optional<std::uint32_t> at;
    for (std::uint32_t k = 0; k < site.operandCount && !at; ++k) {
      if (isAddress(k)) at = k;
    }
    if (!at) return std::nullopt;
    op.barrier = site.firstOperand + *at;
    auto after = [&](std::uint32_t n) -> std::optional<std::uint32_t> {
      if (*at + n < site.operandCount) return site.firstOperand + *at + n;
      return std::nullopt;
    };
    if (facts.has(Modifier::Init)) {
      op.action = MbarrierAction::Init;
    } else if (facts.has(Modifier::Inval)) {
      op.action = MbarrierAction::Inval;
    } else if (facts.does(kMbarrierWait)) {
      op.action = MbarrierAction::Wait;
      op.parity = facts.has(Modifier::Parity);
      op.waitOperand = after(1);
    } else if (facts.does(kMbarrierArrive)) {
      op.action = MbarrierAction::Arrive;
      op.arrives = true;
      if (facts.does(kMbarrierExpectTx)) {
        op.expects = true;
        op.txCount = after(1);
      }
    } else if (facts.does(kMbarrierExpectTx)) {
      op.action = MbarrierAction::ExpectTx;
      op.expects = true;
      op.txCount = after(1);
    } else if (facts.has(Modifier::CompleteTx)) {
      op.action = MbarrierAction::CompleteTx;
      op.txCount = after(1);
    }
    return op;
  }
  if (!facts.is(Family::Cp)) return std::nullopt;
  if (facts.does(kMbarrierArrive)) {  // cp.async.mbarrier.arrive{.noinc}.b64 [bar]
    if (!isAddress(0)) return std::nullopt;
    op.action = MbarrierAction::Arrive;
    op.arrives = true;
    op.barrier = site.firstOperand;
    return op;
  }
  if (!facts.does(kCompletesOnMbarrier)) return std::nullopt;
  // [dst], [src or tensor map and coordinates]{, size}, [bar]{, ctaMask}{, policy}: the
  // barrier is the third address operand.
  std::uint32_t addresses = 0;
  for (std::uint32_t k = 0; k < site.operandCount; ++k) {
    if (!isAddress(k)) continue;
    if (addresses == 0) op.copyDestination = site.firstOperand + k;
    if (addresses == 2) {
      op.barrier = site.firstOperand + k;
      if (!facts.has(Modifier::Tensor) && k == 3) op.copySize = site.firstOperand + 2;
    }
    ++addresses;
  }
  if (addresses < 3) return std::nullopt;
  op.action = MbarrierAction::CompleteTx;
  op.multicast = facts.hasAny({Modifier::MulticastCluster, Modifier::MulticastClusterAll});
  return op;
}

}  // namespace ptx::sync

#include "sync/MbarrierOps.h"

#include "alignment/AddressAlignment.h"

namespace ptx::sync {

std::optional<MbarrierOp> mbarrierOpOf(const RuleContext& context, const InstructionSite& site) {
  if (site.inDamagedCode || site.isCall || site.operandCount == 0) return std::nullopt;
  const Module& module = context.module;
  std::string_view opcode = context.textOf(site.opcode);
  auto operand = [&](std::uint32_t k) -> const InstructionOperand& { return module.operands[site.firstOperand + k]; };
  auto isAddress = [&](std::uint32_t k) { return k < site.operandCount && operand(k).shape == OperandShape::Address; };
  MbarrierOp op;
  if (opcode == "mbarrier") {
    InstructionView view = viewOf(context, site);
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
    if (view.has(".init")) {
      op.action = MbarrierAction::Init;
    } else if (view.has(".inval")) {
      op.action = MbarrierAction::Inval;
    } else if (view.has(".test_wait") || view.has(".try_wait")) {
      op.action = MbarrierAction::Wait;
      op.parity = view.has(".parity");
      op.waitOperand = after(1);
    } else if (view.has(".arrive") || view.has(".arrive_drop")) {
      op.action = MbarrierAction::Arrive;
      op.arrives = true;
      if (view.has(".expect_tx")) {
        op.expects = true;
        op.txCount = after(1);
      }
    } else if (view.has(".expect_tx")) {
      op.action = MbarrierAction::ExpectTx;
      op.expects = true;
      op.txCount = after(1);
    } else if (view.has(".complete_tx")) {
      op.action = MbarrierAction::CompleteTx;
      op.txCount = after(1);
    }
    return op;
  }
  if (opcode != "cp") return std::nullopt;
  InstructionView view = viewOf(context, site);
  if (view.has(".mbarrier") && view.has(".arrive")) {  // cp.async.mbarrier.arrive{.noinc}.b64 [bar]
    if (!isAddress(0)) return std::nullopt;
    op.action = MbarrierAction::Arrive;
    op.arrives = true;
    op.barrier = site.firstOperand;
    return op;
  }
  bool completes = false;
  for (std::string_view modifier : view.modifiers) {
    if (modifier.starts_with(".mbarrier::complete_tx")) completes = true;
  }
  if (!view.has(".bulk") || !completes) return std::nullopt;
  // [dst], [src or tensor map and coordinates]{, size}, [bar]{, ctaMask}{, policy}: the
  // barrier is the third address operand.
  std::uint32_t addresses = 0;
  for (std::uint32_t k = 0; k < site.operandCount; ++k) {
    if (!isAddress(k)) continue;
    if (addresses == 0) op.copyDestination = site.firstOperand + k;
    if (addresses == 2) {
      op.barrier = site.firstOperand + k;
      if (!view.has(".tensor") && k == 3) op.copySize = site.firstOperand + 2;
    }
    ++addresses;
  }
  if (addresses < 3) return std::nullopt;
  op.action = MbarrierAction::CompleteTx;
  op.multicast = view.hasPrefix(".multicast");
  return op;
}

}  // namespace ptx::sync

// SNC014 wait-parity-constant
//
// What it does: finds an mbarrier parity wait (`mbarrier.try_wait.parity`,
// `mbarrier.test_wait.parity`) inside a loop that also completes a phase of the same barrier
// every iteration (an arrive, or a bulk copy completing its bytes on it), when neither the
// barrier nor the parity changes from one iteration to the next: the parity is a literal or a
// register the loop never writes. Loops that initialise the barrier again, and loops that
// wait on it with both parities, are left alone.
//
// Why is this bad: a parity wait returns once the phase with that parity has completed. The
// first iteration waits for phase 0; from the second on, phase 0 is already complete, so a
// wait on parity 0 returns at once and the loop reads a tile the copy has not delivered. The
// parity has to flip each time the barrier completes (`phase ^= 1`, or `(k / stages) & 1`).
//
// Example:
//   LOOP:
//     @%p0 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [%rd1], 256, [bar];
//   WAIT:
//     mbarrier.try_wait.parity.shared::cta.b64 %p1, [bar], 0;
//     @!%p1 bra WAIT;
//     ...
//     @%p2 bra LOOP;
//
// Use instead:
//     mbarrier.try_wait.parity.shared::cta.b64 %p1, [bar], %r9;   // %r9 = iteration & 1
//
// References: PTX ISA mbarrier (phases, phase completion), mbarrier.test_wait/try_wait
// (.parity: the phase waited for is given by its parity).
#include <set>
#include <string>
#include <vector>

#include "RuleContext.h"
#include "flow/ThreadModel.h"
#include "sync/MbarrierOps.h"

namespace ptx {

void checkWaitParityConstant(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (!hasAnalyzableBody(function)) continue;
    std::vector<std::uint32_t> waits;
    for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
      auto op = sync::mbarrierOpOf(context, module.instructions[i]);
      if (op && op->action == sync::MbarrierAction::Wait && op->parity && op->waitOperand) waits.push_back(i);
    }
    if (waits.empty()) continue;
    flow::FunctionFlow& flow = context.flows.flowOfFunction(f);
    flow::ThreadModel& model = context.flows.threadsOfFunction(f);
    const std::vector<flow::BasicBlock>& blocks = flow.blocks();
    // Whether the value an operand reads at `i` is the same on every iteration of `loop`:
    // a literal, or a register with definitions, none of them inside the loop.
    auto invariantIn = [&](const flow::NaturalLoop& loop, std::uint32_t i, const InstructionOperand& operand) {
      if (operand.shape == OperandShape::IntegerLiteral) return true;
      auto reg = flow.registerOf(operand);
      return reg && !flow.reachingDefinitions(i, *reg).empty() && !model.definedInLoop(loop, i, *reg);
    };
    auto barrierInvariantIn = [&](const flow::NaturalLoop& loop, std::uint32_t i, const InstructionOperand& address) {
      flow::AbstractValue value = flow.addressOf(i, address);
      if (value.base != kNoSymbol && value.exactOffset()) return true;
      auto base = flow.baseRegisterOf(address);
      return base && value.base != kNoSymbol && invariantIn(loop, i, *base);
    };
    for (std::uint32_t wait : waits) {
      auto op = sync::mbarrierOpOf(context, module.instructions[wait]);
      const InstructionOperand& parity = module.operands[*op->waitOperand];
      SymbolId barrier = flow.addressOf(wait, module.operands[op->barrier]).base;
      if (barrier == kNoSymbol) continue;
      std::uint32_t waitBlock = flow.blockOf(wait);
      for (const flow::NaturalLoop& loop : model.naturalLoops()) {
        if (!loop.body[waitBlock]) continue;
        if (!invariantIn(loop, wait, parity) || !barrierInvariantIn(loop, wait, module.operands[op->barrier])) continue;
        // What else the loop does to the barrier.
        bool completes = false, reinitializes = false, otherParity = false;
        std::optional<std::uint64_t> constantParity = flow.valueOf(wait, parity).constantValue();
        for (std::uint32_t b = 0; b < blocks.size(); ++b) {
          if (!loop.body[b]) continue;
          for (std::uint32_t i = blocks[b].first; i < blocks[b].end; ++i) {
            auto other = sync::mbarrierOpOf(context, module.instructions[i]);
            if (!other || flow.addressOf(i, module.operands[other->barrier]).base != barrier) continue;
            if (other->action == sync::MbarrierAction::Init || other->action == sync::MbarrierAction::Inval) {
              reinitializes = true;
            } else if (other->arrives || other->action == sync::MbarrierAction::CompleteTx) {
              completes = true;
            } else if (other->action == sync::MbarrierAction::Wait && i != wait) {
              if (!other->parity || !other->waitOperand) {
                otherParity = true;
              } else {
                auto value = flow.valueOf(i, module.operands[*other->waitOperand]).constantValue();
                if (!value || !constantParity || (*value & 1) != (*constantParity & 1)) otherParity = true;
              }
            }
          }
        }
        if (!completes || reinitializes || otherParity) continue;
        context.report("SNC014", module.instructions[wait].statement,
                       concat({"this wait on '", module.symbols[barrier].name, "' uses the same parity (",
                               context.textOf(parity.range),
                               ") on every iteration, but the loop completes a phase of the barrier each time: from "
                               "the second iteration on the wait finds that phase already complete and returns at "
                               "once; flip the parity each time the barrier completes"}));
        break;
      }
    }
  }
}

}  // namespace ptx

// CSQ003 param-scratch-load
//
// What it does: reports an `ld.param` that reads a `.param` variable declared inside a
// function body when no call that returns a value into that variable can have run before the
// load: the variable is used as scratch storage (`st.param` a value into it, `ld.param` it
// back) instead of as a call's argument or return slot. Loads of a call's return variable
// after the call (adjacent or not: CSQ001 judges that) are not concerned, nor are
// `st.param` stores (a store nothing reads is dead, and ptxas compiles it).
//
// Why is this bad: a `.param` variable in a function body exists only to pass arguments to a
// call and take its return values back; it has no storage of its own, and the PTX ISA
// allows `ld.param` on it only to read a return value after the call. ptxas 13.0 does not
// reject the misuse, it crashes: `ptxas -arch=sm_90a` (sm_80 and sm_100a alike, any -O
// level) stops with a segmentation fault on such a load in a kernel, and in a `.func`
// whenever it compiles the function (called from a kernel, or with `-c`); an unused
// internal function is dropped before the crash. Its test cases record the verdicts
// (tests/rules/CSQ003/).
//
// Example:
//     .visible .entry k(.param .u64 out)
//     {
//     .reg .b32 %r<3>;
//     .param .b32 tmp;
//     mov.u32 %r1, %tid.x;
//     st.param.b32 [tmp], %r1;
//     ld.param.b32 %r2, [tmp];          // ptxas 13.0: Segmentation fault
//     ...
//
// Use instead: keep scratch values in registers, or in `.local` memory when they must be
// addressable:
//     .local .align 4 .b32 tmp;
//     st.local.b32 [tmp], %r1;
//     ld.local.b32 %r2, [tmp];
//
// References: PTX ISA §5.1.6.2 (parameter state space: `.param` variables in a function
// body are for passing values to and from a called function), §7.1 (function declarations
// and definitions, the call sequence).
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "CallSequence.h"
#include "RuleContext.h"

namespace ptx {
namespace {

// Whether the call at instruction `call` can run before the instruction `load` along the
// control-flow graph of `flow` (directly before it in one block, or along a path of blocks,
// around a loop included).
bool runsBefore(const flow::FunctionFlow& flow, std::uint32_t call, std::uint32_t load) {
  std::uint32_t from = flow.blockOf(call);
  std::uint32_t to = flow.blockOf(load);
  if (from == to && call < load) return true;
  const std::vector<flow::BasicBlock>& blocks = flow.blocks();
  std::vector<bool> seen(blocks.size(), false);
  std::deque<std::uint32_t> queue;
  for (std::uint32_t next : blocks[from].successors) {
    if (!seen[next]) {
      seen[next] = true;
      queue.push_back(next);
    }
  }
  while (!queue.empty()) {
    std::uint32_t block = queue.front();
    queue.pop_front();
    if (block == to) return true;
    for (std::uint32_t next : blocks[block].successors) {
      if (!seen[next]) {
        seen[next] = true;
        queue.push_back(next);
      }
    }
  }
  return false;
}

}  // namespace

void checkParamScratchLoad(const RuleContext& context) {
  const Module& module = context.module;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (!hasAnalyzableBody(function)) continue;
    std::uint32_t end = function.firstInstruction + function.instructionCount;
    if (end > module.instructions.size()) continue;
    std::vector<std::pair<std::uint32_t, ParamTransfer>> loads;
    std::unordered_map<SymbolId, std::vector<std::uint32_t>> returnedBy;  // Variable -> calls.
    for (std::uint32_t i = function.firstInstruction; i < end; ++i) {
      const InstructionSite& site = module.instructions[i];
      if (site.inDamagedCode) continue;
      if (site.isCall) {
        for (std::uint32_t k = 0; k < site.callReturnCount && k < site.operandCount; ++k) {
          SymbolId symbol = module.operands[site.firstOperand + k].symbol;
          if (isCallParamVariable(module, symbol)) returnedBy[symbol].push_back(i);
        }
        continue;
      }
      ParamTransfer transfer = paramTransferOf(context, site);
      if (transfer.kind == ParamTransferKind::Load) loads.emplace_back(i, transfer);
    }
    if (loads.empty()) continue;
    flow::FunctionFlow& flow = context.flows.flowOfFunction(f);
    for (const auto& [load, transfer] : loads) {
      auto calls = returnedBy.find(transfer.variable);
      bool afterCall = false;
      if (calls != returnedBy.end()) {
        for (std::uint32_t call : calls->second) {
          if (runsBefore(flow, call, load)) {
            afterCall = true;
            break;
          }
        }
      }
      if (afterCall) continue;
      const Symbol& variable = module.symbols[transfer.variable];
      const InstructionSite& site = module.instructions[load];
      std::string why = calls == returnedBy.end() ? std::string("no call returns into it")
                                                  : std::string("no call returning into it runs before this load");
      context.report("CSQ003", site.statement,
                     concat({"ld.param of '", variable.name, "', a .param variable of the function body, outside a ",
                             "call sequence (", why, "): ptxas 13.0 crashes (segmentation fault) on it; keep scratch ",
                             "values in registers or .local memory"}),
                     {{variable.declarationRange, "declared here"}});
    }
  }
}

}  // namespace ptx

// Calls: classifying a function's calls and the ABI's register floor (see Calls.h).
#include "registers/Calls.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "registers/Constants.h"
#include "registers/Liveness.h"

namespace ptx::registers {
namespace {

// The module's call graph as the estimate reads it: the function with a body each callee name
// names (the first such, in source order), and which functions call themselves, directly or
// through others (ptxas cannot inline those). Built once per module: asking per call scanned
// every function, and asking whether a callee is recursive walked its calls again each time.
struct CallGraph {
  std::unordered_map<std::string_view, std::size_t> definedByName;
  std::vector<bool> recursive;  // Per function.

  // The function with a body that a call's target names, SIZE_MAX when there is none (an
  // indirect call's target is a register; an `.extern` function's body is elsewhere).
  std::size_t definedFunction(const Module& module, SymbolId callee) const {
    if (callee == kNoSymbol || callee >= module.symbols.size()) return SIZE_MAX;
    auto it = definedByName.find(module.symbols[callee].name);
    return it == definedByName.end() ? SIZE_MAX : it->second;
  }
};

CallGraph buildCallGraph(const Module& module) {
  CallGraph graph;
  const std::size_t count = module.functions.size();
  for (std::size_t f = 0; f < count; ++f) {
    const FunctionInfo& function = module.functions[f];
    if (function.bodyScope != kNoScope && !function.hasSyntaxErrors) {
      graph.definedByName.try_emplace(module.symbols[function.symbol].name, f);
    }
  }
  // The call graph in the shape of a CFG, so that Liveness's cycle finder (blocksInLoops:
  // strongly connected components, and nodes that reach themselves directly) answers which
  // functions reach themselves.
  std::vector<flow::BasicBlock> calls(count);
  for (std::size_t f = 0; f < count; ++f) {
    const FunctionInfo& function = module.functions[f];
    for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
      const InstructionSite& site = module.instructions[i];
      if (!site.isCall || site.inDamagedCode) continue;
      std::size_t callee = graph.definedFunction(module, site.callee);
      if (callee != SIZE_MAX) calls[f].successors.push_back(static_cast<std::uint32_t>(callee));
    }
  }
  graph.recursive = blocksInLoops(calls);
  return graph;
}

}  // namespace

// Below kCalleeSavedUnits the values live across move to callee-saved registers (20 plus the
// units rounded up to even, never fewer than 24); from there on about two registers per unit,
// as the callee-saved ones run out.
std::uint32_t callRegisterFloor(std::uint32_t across) {
  if (across >= kCalleeSavedUnits) {
    return std::min<std::uint32_t>(kMostRegistersPerThread, 2 * across + kCalleeSavedOverflow);
  }
  return std::max(kAbiMinimum, kBelowCalleeSaved + (across + 1) / 2 * 2);
}

CallSites classifyCalls(const Module& module, flow::FlowCache& flows, std::size_t f) {
  const FunctionInfo& function = module.functions[f];
  CallSites calls;
  calls.throughAbi.assign(function.instructionCount, false);
  calls.calleeOf.assign(function.instructionCount, CallSites::kNoFunction);
  const CallGraph& graph = flows.moduleResultOf<CallGraph>([&](CallGraph& built) { built = buildCallGraph(module); });
  auto isRecursive = [&](std::size_t callee) { return graph.recursive[callee]; };
  auto definedFunction = [&](const Module& m, SymbolId callee) { return graph.definedFunction(m, callee); };
  for (std::uint32_t i = 0; i < function.instructionCount; ++i) {
    const InstructionSite& site = module.instructions[function.firstInstruction + i];
    if (!site.isCall || site.inDamagedCode) continue;
    std::size_t callee = definedFunction(module, site.callee);
    if (callee == CallSites::kNoFunction || callee == f) {
      calls.throughAbi[i] = true;  // Indirect, external, or recursive: through the ABI.
    } else if (isRecursive(callee)) {
      // A recursive callee is compiled once, through the ABI: it saves the callee-saved
      // registers it uses, so the caller needs as many registers as it, not its sum with
      // what lives across the call, and the ABI floor applies around the call.
      calls.throughAbi[i] = true;
      if (std::find(calls.abiCallees.begin(), calls.abiCallees.end(), callee) == calls.abiCallees.end()) {
        calls.abiCallees.push_back(callee);
      }
    } else {
      calls.calleeOf[i] = callee;
    }
  }
  return calls;
}

}  // namespace ptx::registers

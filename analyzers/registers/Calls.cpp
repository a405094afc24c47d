// Calls: classifying a function's calls and the ABI's register floor (see Calls.h).
#include "registers/Calls.h"

#include <algorithm>
#include <unordered_map>

#include "registers/Constants.h"

namespace ptx::registers {
namespace {

// The function with a body that a call's target names, SIZE_MAX when there is none (an
// indirect call's target is a register; an `.extern` function's body is elsewhere).
std::size_t definedFunction(const Module& module, SymbolId callee) {
  if (callee == kNoSymbol || callee >= module.symbols.size()) return SIZE_MAX;
  const std::string& name = module.symbols[callee].name;
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const FunctionInfo& function = module.functions[f];
    if (function.bodyScope != kNoScope && !function.hasSyntaxErrors && module.symbols[function.symbol].name == name) {
      return f;
    }
  }
  return SIZE_MAX;
}

// Whether a function defined in the module calls itself, directly or through other functions:
// ptxas cannot inline it.
bool reachesItself(const Module& module, std::size_t start) {
  std::vector<bool> seen(module.functions.size(), false);
  std::vector<std::size_t> pending{start};
  while (!pending.empty()) {
    const FunctionInfo& function = module.functions[pending.back()];
    pending.pop_back();
    for (std::uint32_t i = function.firstInstruction; i < function.firstInstruction + function.instructionCount; ++i) {
      const InstructionSite& site = module.instructions[i];
      if (!site.isCall || site.inDamagedCode) continue;
      std::size_t callee = definedFunction(module, site.callee);
      if (callee == start) return true;
      if (callee != SIZE_MAX && !seen[callee]) {
        seen[callee] = true;
        pending.push_back(callee);
      }
    }
  }
  return false;
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

CallSites classifyCalls(const Module& module, std::size_t f) {
  const FunctionInfo& function = module.functions[f];
  CallSites calls;
  calls.throughAbi.assign(function.instructionCount, false);
  calls.calleeOf.assign(function.instructionCount, CallSites::kNoFunction);
  std::unordered_map<std::size_t, bool> recursiveCallee;  // Asked once per callee.
  auto isRecursive = [&](std::size_t callee) {
    auto [known, inserted] = recursiveCallee.try_emplace(callee, false);
    if (inserted) known->second = reachesItself(module, callee);
    return known->second;
  };
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

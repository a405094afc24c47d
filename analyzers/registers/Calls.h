// Calls: what calls cost the register estimate. Calls ptxas cannot inline (indirect ones,
// calls of functions defined elsewhere, recursion) go through the ABI, whose register floor
// applies; a call of a function defined in the module needs the callee's registers on top of
// what lives across it (estimateRegisters adds them once every function is estimated).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "flow/FunctionFlow.h"
#include "model/Module.h"

namespace ptx::registers {

// The calls of one function, per function-local instruction.
struct CallSites {
  static constexpr std::size_t kNoFunction = SIZE_MAX;
  std::vector<bool> throughAbi;        // Indirect, external or recursive: the ABI floor applies.
  std::vector<std::size_t> calleeOf;   // A function of the module ptxas may inline; else kNoFunction.
  std::vector<std::size_t> abiCallees; // Recursive callees of the module, each once.
};
// `flows` keeps the module's call graph (which function each call names, which functions are
// recursive), built once for every function's estimate.
CallSites classifyCalls(const Module& module, flow::FlowCache& flows, std::size_t function);

// The registers a function needs around a call through the ABI with `across` 32-bit units live
// across it (Constants.h: kAbiMinimum, kBelowCalleeSaved, kCalleeSavedUnits).
std::uint32_t callRegisterFloor(std::uint32_t across);

}  // namespace ptx::registers

// IfConversion: the second stage of the register estimate (RegisterPressure.h). ptxas turns
// short forward branches into predicated code; this stage merges such runs of blocks into one
// region, so that the scheduler and liveness see them as straight-line code.
#pragma once

#include <vector>

#include "flow/FunctionFlow.h"
#include "model/Module.h"
#include "registers/Lowering.h"

namespace ptx::registers {

// The function's blocks with every convertible run merged into one region (contiguous, with
// successors and predecessors renumbered); the branches inside a run become predicatedAway and
// the skipped instructions read the branch's predicate. The blocks unchanged when they are not
// contiguous in source order.
std::vector<flow::BasicBlock> ifConvert(const Module& module, const flow::FunctionFlow& flow, LoweredFunction& lowered);

}  // namespace ptx::registers

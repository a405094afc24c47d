// Unrolling: what ptxas's unrolling of small loops adds to the register estimate. It unrolls
// small single-block counted loops four times and keeps the copies' loads in flight together,
// up to the registers that keep every warp slot usable (Constants.h: kLargestUnrolledBody,
// kUnrollFactor).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "flow/FunctionFlow.h"
#include "model/Module.h"
#include "registers/Lowering.h"

namespace ptx::registers {

struct RegisterEstimate;

// The registers the function needs once its unrollable loops are unrolled (0 when none is);
// `current` is the figure so far, which the ceiling never goes below. `blocks` are the regions
// the estimate walked, `estimate.liveUnits` their pressure.
std::uint32_t unrolledLoopRegisters(std::string_view text, const Module& module, flow::FunctionFlow& flow,
                                    const FunctionInfo& function, const LoweredFunction& lowered,
                                    const std::vector<flow::BasicBlock>& blocks, const RegisterEstimate& estimate,
                                    std::uint32_t current);

}  // namespace ptx::registers

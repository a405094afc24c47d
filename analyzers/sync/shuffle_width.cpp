// SNC003 shuffle-width
//
// What it does: checks the packed operand `c` of `shfl.sync` when it is a constant: its
// segment mask (bits 8-12) must split the warp into segments of a power-of-two width, that
// is be 32 minus 1, 2, 4, 8, 16 or 32. CUDA's `__shfl_*_sync(mask, v, lane, width)` puts
// `(32 - width) << 8` there, so a width such as 12 shows up as a segment mask of 20.
//
// Why is this bad: the hardware treats the segment mask as a bit mask of lane-number bits
// that select the segment; a value that is not of this form mixes lanes of different
// segments, and CUDA documents width as a power of two no larger than the warp. The result
// is not the shuffle the code asks for.
//
// Example:
//     shfl.sync.bfly.b32 %r2, %r1, 1, 0x141f, 0xffffffff;   // width 12
//
// Use instead:
//     shfl.sync.bfly.b32 %r2, %r1, 1, 0x101f, 0xffffffff;   // width 16
//
// References: PTX ISA shfl.sync (operand c: clamp value and segment mask); CUDA C++
// Programming Guide, warp shuffle functions (width).
#include <string>

#include "RuleContext.h"

namespace ptx {

void checkShuffleWidth(const RuleContext& context) {
  const Module& module = context.module;
  for (std::uint32_t index = 0; index < module.instructions.size(); ++index) {
    const InstructionSite& site = module.instructions[index];
    if (site.inDamagedCode || site.isCall || site.operandCount != 5) continue;
    if (!module.factsOf(site).is(Family::Shfl)) continue;
    flow::FunctionFlow* flow = context.flows.flowOfInstruction(index);
    if (flow == nullptr) continue;
    auto packed = flow->valueOf(index, module.operands[site.firstOperand + 3]).constantValue();
    if (!packed) continue;
    std::uint32_t segmentMask = (*packed >> 8) & 0x1f;
    std::uint32_t width = 32 - segmentMask;
    bool powerOfTwo = segmentMask == 0 || segmentMask == 16 || segmentMask == 24 || segmentMask == 28 ||
                      segmentMask == 30 || segmentMask == 31;
    if (powerOfTwo) continue;
    context.report("SNC003", module.operands[site.firstOperand + 3].range,
                 concat({"shuffle segment mask ", std::to_string(segmentMask), " means a width of ",
                         std::to_string(width), " lanes, which is not a power of two: the segments it selects are not ",
                         std::to_string(width), " lanes wide"}));
  }
}

}  // namespace ptx

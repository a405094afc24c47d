// nvcc-flags: -arch=sm_80
// Fixed twin of isa001_mvo.cu: the opcode is mov.
// Bug class of the defect: misspelt or wrong opcodes (NVIDIA/cutlass#1494, #690).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// Lane and warp id in one statement (%% is a single % because the statement has operands).
__device__ __forceinline__ uint32_t lane_and_warp(uint32_t& warp) {
  uint32_t lane;
  asm volatile("{\n\t"
               ".reg .u32 t;\n\t"
               "mov.u32 t, %%laneid;\n\t"
               "mov.u32 %0, t;\n\t"
               "mov.u32 %1, %%warpid;\n\t"
               "}"
               : "=r"(lane), "=r"(warp));
  return lane;
}

__global__ void ids(uint32_t* out) {
  uint32_t warp;
  const uint32_t lane = lane_and_warp(warp);
  out[2 * (blockIdx.x * blockDim.x + threadIdx.x)] = lane;
  out[2 * (blockIdx.x * blockDim.x + threadIdx.x) + 1] = warp;
}

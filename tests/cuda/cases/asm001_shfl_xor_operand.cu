// nvcc-flags: -arch=sm_80
// Defect: the shuffle's member mask is written %4, but the statement has four operands (%0..%3);
//         nvcc stops with an internal compiler error when it emits the code.
// Bug class: operand-index mix-ups in hand-written wrappers (NVIDIA/cccl#8402, NVIDIA/cutlass#1225).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=-); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: nvcc-internal-error line 13: Internal Compiler Error (codegen): "asm operand index requested is larger than the number of asm operands provided!"

#include <cstdint>

// Butterfly exchange for a warp reduction (the shape of CUB's ShuffleXor wrapper).
__device__ __forceinline__ uint32_t shfl_xor_sync(uint32_t value, int lane_mask) {
  uint32_t result;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, %4;"  // expect: ASM001 at "%4"
               : "=r"(result)
               : "r"(value), "r"(lane_mask), "r"(0xffffffffu));
  return result;
}

__global__ void warp_sum(uint32_t* out, const uint32_t* in) {
  uint32_t v = in[blockIdx.x * blockDim.x + threadIdx.x];
#pragma unroll
  for (int mask = 16; mask > 0; mask >>= 1) v += shfl_xor_sync(v, mask);
  if ((threadIdx.x & 31) == 0) out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = v;
}

// nvcc-flags: -arch=sm_80
// Fixed twin of isa001_shfl_macro.cu: the macro spells shfl.
// Bug class of the defect: misspelt opcodes (NVIDIA/cutlass#1494, #690), behind a macro piece of the
//                          template.
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

#define SHFL_BFLY_B32 "shfl.sync.bfly.b32"

// Warp-wide max for a softmax row.
__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int mask = 16; mask > 0; mask >>= 1) {
    float other;
    asm volatile(SHFL_BFLY_B32 " %0, %1, %2, 0x1f, 0xffffffff;" : "=f"(other) : "f"(v), "r"(mask));
    v = fmaxf(v, other);
  }
  return v;
}

__global__ void row_max(float* out, const float* in) {
  const float m = warp_max(in[blockIdx.x * 32 + threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = m;
}

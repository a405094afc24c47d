// nvcc-flags: -arch=sm_80
// Defect: the opcode comes from an object-like macro (SHFL_BFLY_B32) that misspells shfl as shlf;
//         ptxas: not a name of any known instruction.
// Bug class: misspelt opcodes (NVIDIA/cutlass#1494, #690), behind a macro piece of the template.
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: ptxas-error (sm_80) .cu line 10: Not a name of any known instruction: 'shlf'

#include <cstdint>

#define SHFL_BFLY_B32 "shlf.sync.bfly.b32"  // expect: ISA001 at "shlf"

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

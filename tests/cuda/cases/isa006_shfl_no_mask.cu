// nvcc-flags: -arch=sm_80
// Defect: shfl.sync without its member-mask operand (four operands instead of five, as the pre-Volta
//         shfl took); ptxas: arguments mismatch.
// Bug class: wrong instruction forms on rarely compiled paths (NVIDIA/cutlass#690).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: ptxas-error (sm_80) .cu line 12: Arguments mismatch for instruction 'shfl'

#include <cstdint>

__device__ __forceinline__ uint32_t shfl_idx(uint32_t v, uint32_t src_lane) {
  uint32_t r;
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f;" : "=r"(r) : "r"(v), "r"(src_lane));  // expect: ISA006 at "shfl.sync"
  return r;
}

__global__ void broadcast_lane0(uint32_t* out, const uint32_t* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = shfl_idx(in[i], 0);
}

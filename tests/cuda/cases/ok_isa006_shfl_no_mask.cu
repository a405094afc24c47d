// nvcc-flags: -arch=sm_80
// Fixed twin of isa006_shfl_no_mask.cu: the member mask 0xffffffff is the last operand.
// Bug class of the defect: wrong instruction forms on rarely compiled paths (NVIDIA/cutlass#690).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

__device__ __forceinline__ uint32_t shfl_idx(uint32_t v, uint32_t src_lane) {
  uint32_t r;
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(src_lane));
  return r;
}

__global__ void broadcast_lane0(uint32_t* out, const uint32_t* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = shfl_idx(in[i], 0);
}

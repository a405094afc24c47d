// nvcc-flags: -arch=sm_80
// Fixed twin of asm007_ld_v2_index.cu: the address is the input %2.
// Bug class of the defect: operand-index mix-ups reading write-only outputs (NVIDIA/cccl#8402).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

__device__ __forceinline__ uint2 lds_v2(uint32_t addr) {
  uint2 v;
  asm volatile("ld.shared.v2.u32 {%0, %1}, "
               "[%2];"
               : "=r"(v.x), "=r"(v.y)
               : "r"(addr));
  return v;
}

__global__ void gather_pairs(uint2* out, const uint2* in) {
  __shared__ uint2 tile[128];
  tile[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] =
      lds_v2(static_cast<uint32_t>(__cvta_generic_to_shared(&tile[127 - threadIdx.x])));
}

// nvcc-flags: -arch=sm_80
// Fixed twin of syn002_unclosed_bracket.cu: the bracket is closed.
// Bug class of the defect: template syntax slips (NVIDIA/cutlass#1494).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

__device__ __forceinline__ uint32_t lds_u32(uint32_t addr) {
  uint32_t v;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr));
  return v;
}

__global__ void reverse_block(uint32_t* out, const uint32_t* in) {
  __shared__ uint32_t tile[256];
  tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] =
      lds_u32(static_cast<uint32_t>(__cvta_generic_to_shared(&tile[255 - threadIdx.x])));
}

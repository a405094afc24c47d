// nvcc-flags: -arch=sm_80
// Fixed twin of isa004_cp_async_glbal.cu: the state space is .global.
// Bug class of the defect: misspelt modifiers (NVIDIA/cutlass#1494).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

__device__ __forceinline__ void cp_async_cg_16(void* smem_ptr, const void* gmem_ptr) {
  const uint32_t smem = static_cast<uint32_t>(__cvta_generic_to_shared(smem_ptr));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem), "l"(gmem_ptr));
}

__global__ void stage(uint4* out, const uint4* in) {
  __shared__ uint4 tile[128];
  cp_async_cg_16(&tile[threadIdx.x], in + blockIdx.x * 128 + threadIdx.x);
  asm volatile("cp.async.wait_all;\n" ::);
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = tile[127 - threadIdx.x];
}

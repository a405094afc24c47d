// nvcc-flags: -arch=sm_80
// Defect: cp.async.ca without its copy-size operand; ptxas: arguments mismatch.
// Bug class: wrong instruction forms (NVIDIA/cutlass#690).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: ptxas-error (sm_80) .cu line 11: Arguments mismatch for instruction 'cp.async'

#include <cstdint>

__device__ __forceinline__ void cp_async_ca_8(void* smem_ptr, const void* gmem_ptr) {
  const uint32_t smem = static_cast<uint32_t>(__cvta_generic_to_shared(smem_ptr));
  asm volatile("cp.async.ca.shared.global [%0], [%1];\n" ::"r"(smem), "l"(gmem_ptr));  // expect: ISA006 at "cp.async"
}

__global__ void stage_pairs(uint2* out, const uint2* in) {
  __shared__ uint2 tile[256];
  cp_async_ca_8(&tile[threadIdx.x], in + blockIdx.x * 256 + threadIdx.x);
  asm volatile("cp.async.wait_all;\n" ::);
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}

// nvcc-flags: -arch=sm_80
// Fixed twin of syn002_missing_semicolon.cu: the ';' is there.
// Bug class of the defect: template syntax slips on rarely compiled paths (NVIDIA/cutlass#1494).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

__device__ __forceinline__ void cp_async_commit_and_drain() {
  asm volatile("cp.async.commit_group;\n\t"
               "cp.async.wait_group 0;\n\t" ::: "memory");
}

__global__ void stage(uint4* out, const uint4* in) {
  __shared__ uint4 tile[128];
  const uint32_t smem = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem),
               "l"(in + blockIdx.x * 128 + threadIdx.x));
  cp_async_commit_and_drain();
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = tile[127 - threadIdx.x];
}

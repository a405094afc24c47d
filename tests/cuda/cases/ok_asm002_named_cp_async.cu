// nvcc-flags: -arch=sm_80
// Fixed twin of asm002_named_cp_async.cu: the destination is %0.
// Bug class of the defect: templates ported from GCC-style inline asm (issue 22, facts §1).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// 16-byte global->shared async copy (CUTLASS SM80_CP_ASYNC_CACHEGLOBAL).
__device__ __forceinline__ void cp_async_16(void* smem_ptr, const void* gmem_ptr) {
  const uint32_t smem = static_cast<uint32_t>(__cvta_generic_to_shared(smem_ptr));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n"
               ::"r"(smem), "l"(gmem_ptr));
}

__global__ void stage_tile(uint4* out, const uint4* in) {
  __shared__ uint4 tile[128];
  cp_async_16(&tile[threadIdx.x], in + blockIdx.x * 128 + threadIdx.x);
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_group 0;\n" ::);
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = tile[127 - threadIdx.x];
}

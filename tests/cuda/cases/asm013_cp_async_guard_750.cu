// nvcc-flags: -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80
// Defect: cp.async (sm_80+) behind '#if __CUDA_ARCH__ >= 750': the guard lets the compute_75 pass
//         reach it and ptxas fails there (compute_75 from -gencode arch=compute_75,code=sm_75).
// Bug class: arch guards off by one generation (llama.cpp#18363, SageAttention#291).
// Checked with: nvcc -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 = compute_75 (ptxas -arch=sm_75), compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_75: ptxas-error (sm_75) .cu line 13: Feature 'cp.async' requires .target sm_80 or higher; compute_80: ok

#include <cstdint>

__device__ __forceinline__ void copy_16B_to_smem(uint4* smem_dst, const uint4* gmem_src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(smem_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(gmem_src) : "memory");  // expect: ASM013 at "cp.async"
#else
  *smem_dst = *gmem_src;
#endif
}

__device__ __forceinline__ void wait_all_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

__global__ void stage(uint4* out, const uint4* in) {
  __shared__ uint4 tile[128];
  copy_16B_to_smem(&tile[threadIdx.x], in + blockIdx.x * 128 + threadIdx.x);
  wait_all_copies();
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = tile[127 - threadIdx.x];
}

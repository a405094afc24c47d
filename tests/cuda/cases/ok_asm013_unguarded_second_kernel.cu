// nvcc-flags: -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80
// Fixed twin of asm013_unguarded_second_kernel.cu: the second kernel calls the wait under the same
//                                                  __CUDA_ARCH__ >= 800 guard.
// Bug class of the defect: arch guards that let the wrong pass reach an instruction
//                          (llama.cpp#18363, cutlass#1874).
// Checked with: nvcc -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 = compute_75 (ptxas -arch=sm_75), compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_75, compute_80)

#include <cstdint>

__device__ __forceinline__ void cp_async_16(uint32_t smem, const void* gmem) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem), "l"(gmem) : "memory");
}

__device__ __forceinline__ void cp_async_wait_all() {
  asm volatile("cp.async.wait_all;\n" ::: "memory");
}

__global__ void stage(uint4* out, const uint4* in) {
  __shared__ uint4 tile[128];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  cp_async_16(static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x])),
              in + blockIdx.x * 128 + threadIdx.x);
  cp_async_wait_all();
#else
  tile[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
#endif
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = tile[127 - threadIdx.x];
}

// Added later: drains outstanding copies before an epilogue reads shared memory.
__global__ void epilogue(uint4* out) {
  __shared__ uint4 tile[128];
  tile[threadIdx.x] = out[blockIdx.x * 128 + threadIdx.x];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  cp_async_wait_all();
#endif
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = tile[127 - threadIdx.x];
}

// nvcc-flags: -arch=sm_80
// Fixed twin of asm010_ld_volatile_flag.cu: the load is asm volatile.
// Bug class of the defect: missing volatile on polling loads (flashinfer#5125, vllm#2760).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

__device__ __forceinline__ uint32_t ld_volatile_u32(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

// Waits until a producer kernel on another stream raised `ready`, then copies.
__global__ void wait_then_copy(uint32_t* out, const uint32_t* in, const uint32_t* ready) {
  if (threadIdx.x == 0) {
    while (ld_volatile_u32(ready) == 0) {
    }
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
}

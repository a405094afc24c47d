// nvcc-flags: -arch=sm_80
// Defect: a non-volatile asm load (ld.volatile.global) polled in a while loop whose exit depends on
//         it: nvcc treats the statement as a pure function and hoists it out of the loop, which then
//         never exits. nvcc and ptxas accept it.
// Bug class: missing volatile on polling loads (flashinfer#5125, vllm#2760).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80); PTX: compute_80: hoisted out of the loop

#include <cstdint>

__device__ __forceinline__ uint32_t ld_volatile_u32(const uint32_t* p) {
  uint32_t v;
  asm("ld.volatile.global.u32 %0, [%1];" : "=r"(v) : "l"(p));  // expect: ASM010 at "ld.volatile"
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

// nvcc-flags: -arch=sm_80
// Defect: a non-volatile ld.acquire.gpu in a do/while loop that sleeps until the flag is set: nvcc
//         hoists the load out of the loop. nvcc and ptxas accept it.
// Bug class: missing volatile on polling loads (flashinfer#5125, vllm#2760).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80); PTX: compute_80: hoisted out of the loop

#include <cstdint>

__device__ __forceinline__ uint32_t ld_acquire_gpu(const uint32_t* p) {
  uint32_t v;
  asm("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p));  // expect: ASM010 at "ld.acquire"
  return v;
}

// Consumer of a flag-protected buffer (decoupled look-back style).
__global__ void consume(float* out, const float* data, const uint32_t* flag) {
  uint32_t seen;
  do {
    seen = ld_acquire_gpu(flag);
    if (seen == 0) __nanosleep(64);
  } while (seen == 0);
  out[blockIdx.x * blockDim.x + threadIdx.x] = data[blockIdx.x * blockDim.x + threadIdx.x];
}

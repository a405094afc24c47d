// nvcc-flags: -arch=sm_80
// Fixed twin of asm010_ld_acquire_spin.cu: the load is asm volatile with a "memory" clobber.
// Bug class of the defect: missing volatile on polling loads (flashinfer#5125, vllm#2760).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

__device__ __forceinline__ uint32_t ld_acquire_gpu(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
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

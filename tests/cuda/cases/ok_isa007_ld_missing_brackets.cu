// nvcc-flags: -arch=sm_80
// Fixed twin of isa007_ld_missing_brackets.cu: the address is [%1].
// Bug class of the defect: wrong operand forms (NVIDIA/cutlass#690).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

__device__ __forceinline__ uint32_t ld_global_u32(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

__global__ void copy_words(uint32_t* out, const uint32_t* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = ld_global_u32(in + i);
}

// nvcc-flags: -arch=sm_80
// Defect: the address operand of ld.global is written %1 without brackets, so it is a register where
//         an address is required; ptxas: arguments mismatch.
// Bug class: wrong operand forms (NVIDIA/cutlass#690).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: ptxas-error (sm_80) .cu line 12: Arguments mismatch for instruction 'ld'

#include <cstdint>

__device__ __forceinline__ uint32_t ld_global_u32(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.global.u32 %0, %1;" : "=r"(v) : "l"(p));  // expect: ISA007 at "%1"
  return v;
}

__global__ void copy_words(uint32_t* out, const uint32_t* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = ld_global_u32(in + i);
}

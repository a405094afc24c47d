// nvcc-flags: -arch=sm_80
// Defect: a comma is missing between the last two operands of prmt (%2 %3); ptxas: parsing error.
// Bug class: template syntax slips (NVIDIA/cutlass#1494).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: ptxas-error (sm_80) .cu line 12: Parsing error near '%r4': syntax error

#include <cstdint>

// Packs the low halves of two words (half2 construction).
__device__ __forceinline__ uint32_t pack_low_halves(uint32_t a, uint32_t b, uint32_t sel) {
  uint32_t r;
  asm("prmt.b32 %0, %1, %2 %3;" : "=r"(r) : "r"(a), "r"(b), "r"(sel));  // expect: SYN001 at "%3"
  return r;
}

__global__ void pack(uint32_t* out, const uint32_t* a, const uint32_t* b) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = pack_low_halves(a[i], b[i], 0x5410u);
}

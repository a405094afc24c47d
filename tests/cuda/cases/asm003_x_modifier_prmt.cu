// nvcc-flags: -arch=sm_80
// Defect: the byte selector is written %x3 (an x86 GCC modifier); nvcc rejects operand modifiers.
// Bug class: templates ported from host inline asm (issue 22, facts §3).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=-); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: nvcc-error line 12: Asm operand modifier not supported at "%x", try removing modifier or escaping with %

#include <cstdint>

// Byte permute with a run-time selector (fp8/int8 shuffles in quantized kernels).
__device__ __forceinline__ uint32_t byte_perm(uint32_t a, uint32_t b, uint32_t sel) {
  uint32_t r;
  asm("prmt.b32 %0, %1, %2, %x3;" : "=r"(r) : "r"(a), "r"(b), "r"(sel));  // expect: ASM003 at "%x3"
  return r;
}

__global__ void swap_halves(uint32_t* out, const uint32_t* a, const uint32_t* b) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = byte_perm(a[i], b[i], 0x5410u);
}

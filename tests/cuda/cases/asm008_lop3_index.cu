// nvcc-flags: -arch=sm_80
// Defect: the lop3 destination is written %1 (the first input) instead of %0: the template writes an
//         input and never writes its output. nvcc and ptxas accept it.
// Bug class: operand-index mix-ups writing inputs (NVIDIA/cutlass#1225).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// Three-way XOR for a hash mix (lop3 lookup table 0x96 = a ^ b ^ c).
__device__ __forceinline__ uint32_t xor3(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t d;
  asm("lop3.b32 %1, %1, %2, %3, 0x96;" : "=r"(d) : "r"(a), "r"(b), "r"(c));  // expect: ASM008 at "%1"
  return d;
}

__global__ void mix(uint32_t* out, const uint32_t* a, const uint32_t* b, const uint32_t* c) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = xor3(a[i], b[i], c[i]);
}

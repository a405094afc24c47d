// nvcc-flags: -arch=sm_80
// Fixed twin of asm002_named_bfi.cu: the position is the positional operand %3.
// Bug class of the defect: templates ported from host GCC/clang inline asm, which nvcc handles
//                          differently (issue 22, facts §1).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// Inserts one byte into a word at a run-time bit position (byte packing for int8 epilogues).
__device__ __forceinline__ uint32_t insert_byte(uint32_t base, uint32_t byte, uint32_t pos) {
  uint32_t r;
  asm("bfi.b32 %0, %1, %2, %3, 8;"
      : "=r"(r)
      : "r"(byte), "r"(base), "r"(pos));
  return r;
}

__global__ void pack_bytes(uint32_t* out, const uint8_t* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t w = 0;
  for (uint32_t b = 0; b < 4; ++b) w = insert_byte(w, in[4 * i + b], 8 * b);
  out[i] = w;
}

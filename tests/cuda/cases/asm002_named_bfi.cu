// nvcc-flags: -arch=sm_80
// Defect: GCC-style named operand %[pos] (declared as [pos] "r"(pos)); nvcc does not support
//         symbolic operand references.
// Bug class: templates ported from host GCC/clang inline asm, which nvcc handles differently (issue
//            22, facts §1).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=-); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: nvcc-internal-error line 14: Internal Compiler Error (codegen): "symbolic operand reference not supported!"

#include <cstdint>

// Inserts one byte into a word at a run-time bit position (byte packing for int8 epilogues).
__device__ __forceinline__ uint32_t insert_byte(uint32_t base, uint32_t byte, uint32_t pos) {
  uint32_t r;
  asm("bfi.b32 %0, %1, %2, %[pos], 8;"  // expect: ASM002 at "%[pos]"
      : "=r"(r)
      : "r"(byte), "r"(base), [pos] "r"(pos));
  return r;
}

__global__ void pack_bytes(uint32_t* out, const uint8_t* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t w = 0;
  for (uint32_t b = 0; b < 4; ++b) w = insert_byte(w, in[4 * i + b], 8 * b);
  out[i] = w;
}

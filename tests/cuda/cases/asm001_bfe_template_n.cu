// nvcc-flags: -arch=sm_80
// Defect: the field width is written %4 in a function template whose "n" operands come from template
//         parameters; the statement has four operands (%0..%3). nvcc fails only once the template is
//         instantiated.
// Bug class: operand-index mix-ups (NVIDIA/cccl#8402); "n" operands from template parameters
//            (NVIDIA/cccl#2225).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=-); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: nvcc-internal-error line 17: Internal Compiler Error (codegen): "asm operand index requested is larger than the number of asm operands provided!"

#include <cstdint>

// Bit-field extract with a compile-time position and width (int4 dequantization in GEMM
// prologues).
template <int Start, int Len>
__device__ __forceinline__ uint32_t bfe(uint32_t x) {
  uint32_t r;
  asm("bfe.u32 %0, %1, %2, %4;" : "=r"(r) : "r"(x), "n"(Start), "n"(Len));  // expect: ASM001 at "%4"
  return r;
}

// Unpacks the low four 4-bit weights of each word.
__global__ void unpack_int4(uint32_t* out, const uint32_t* packed) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t w = packed[i];
  uint32_t* o = out + 4 * i;
  o[0] = bfe<0, 4>(w);
  o[1] = bfe<4, 4>(w);
  o[2] = bfe<8, 4>(w);
  o[3] = bfe<12, 4>(w);
}

// nvcc-flags: -arch=sm_80
// Fixed twin of asm001_bfe_template_n.cu: the width is %3.
// Bug class of the defect: operand-index mix-ups (NVIDIA/cccl#8402); "n" operands from template
//                          parameters (NVIDIA/cccl#2225).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// Bit-field extract with a compile-time position and width (int4 dequantization in GEMM
// prologues).
template <int Start, int Len>
__device__ __forceinline__ uint32_t bfe(uint32_t x) {
  uint32_t r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "n"(Start), "n"(Len));
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

// nvcc-flags: -arch=sm_80
// Defect: the last accumulator of the m16n8k16 MMA is written %14; the statement has 14 operands
//         (%0..%13).
// Bug class: operand-index mix-ups in long mma/wgmma operand lists (NVIDIA/cccl#8402).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=-); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: nvcc-internal-error line 13: Internal Compiler Error (codegen): "asm operand index requested is larger than the number of asm operands provided!"

#include <cstdint>

// One m16n8k16 tensor-core MMA with fp16 inputs and fp32 accumulators (CUTLASS SM80_16x8x16).
__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const uint32_t (&a)[4],
                                             const uint32_t (&b)[2], const float (&c)[4]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\n"
      "    {%0, %1, %2, %3},\n"
      "    {%4, %5, %6, %7},\n"
      "    {%8, %9},\n"
      "    {%10, %11, %12, %14};\n"  // expect: ASM001 at "%14"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
        "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

__global__ void mma_tile(float* out, const uint32_t* a_frag, const uint32_t* b_frag) {
  const int lane = threadIdx.x & 31;
  const uint32_t a[4] = {a_frag[lane * 4], a_frag[lane * 4 + 1], a_frag[lane * 4 + 2],
                         a_frag[lane * 4 + 3]};
  const uint32_t b[2] = {b_frag[lane * 2], b_frag[lane * 2 + 1]};
  const float c[4] = {0.f, 0.f, 0.f, 0.f};
  float d[4];
  mma_m16n8k16(d, a, b, c);
  for (int i = 0; i < 4; ++i) out[lane * 4 + i] = d[i];
}

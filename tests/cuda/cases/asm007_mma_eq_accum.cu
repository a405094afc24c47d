// nvcc-flags: -arch=sm_80
// Defect: the accumulators are write-only outputs ("=f") but the template also reads them as the C
//         operand {%0, %1, %2, %3}; their incoming values are undefined. nvcc and ptxas accept it.
// Bug class: reading write-only outputs (NVIDIA/cccl#8402; CCCL review rule NVIDIA/cccl#11554).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// D = A * B + D with bf16 inputs (the FlashAttention score/output MMA).
__device__ __forceinline__ void mma_bf16_16816(float (&acc)[4], const uint32_t (&a)[4],
                                               const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
      "{%0, %1, %2, %3}, "
      "{%4, %5, %6, %7}, "
      "{%8, %9}, "
      "{%0, %1, %2, %3};\n"  // expect: ASM007 at "%0"
      : "=f"(acc[0]), "=f"(acc[1]), "=f"(acc[2]), "=f"(acc[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__global__ void gemm_k_loop(float* out, const uint32_t* a_frag, const uint32_t* b_frag, int k_tiles) {
  const int lane = threadIdx.x & 31;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k = 0; k < k_tiles; ++k) {
    const uint32_t* pa = a_frag + (k * 32 + lane) * 4;
    const uint32_t* pb = b_frag + (k * 32 + lane) * 2;
    const uint32_t a[4] = {pa[0], pa[1], pa[2], pa[3]};
    const uint32_t b[2] = {pb[0], pb[1]};
    mma_bf16_16816(acc, a, b);
  }
  for (int i = 0; i < 4; ++i) out[lane * 4 + i] = acc[i];
}

// nvcc-flags: -arch=sm_80
// Defect: the shared address of an ldmatrix is written %w4 (GCC's 32-bit-register modifier, for an
//         operand that is already 32-bit); nvcc rejects operand modifiers.
// Bug class: templates ported from GCC/aarch64 habits (issue 22, facts §3).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=-); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: nvcc-error line 13: Asm operand modifier not supported at "%w", try removing modifier or escaping with %

#include <cstdint>

// Loads four 8x8 b16 matrices from shared memory (CUTLASS SM75_U32x4_LDSM_N).
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&frag)[4], const void* smem_ptr) {
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem_ptr));
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, "
      "[%w4];\n"  // expect: ASM003 at "%w4"
      : "=r"(frag[0]), "=r"(frag[1]), "=r"(frag[2]), "=r"(frag[3])
      : "r"(addr));
}

__global__ void load_fragments(uint32_t* out, const uint4* in) {
  __shared__ uint4 tile[64];
  tile[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  const int lane = threadIdx.x & 31;
  uint32_t frag[4];
  ldmatrix_x4(frag, &tile[(lane % 16) * 2 + lane / 16]);
  for (int i = 0; i < 4; ++i) out[(blockIdx.x * 64 + threadIdx.x) * 4 + i] = frag[i];
}

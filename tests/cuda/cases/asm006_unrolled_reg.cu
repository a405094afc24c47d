// nvcc-flags: -arch=sm_80
// Defect: '.reg .b16 lo, hi;' at the template's top level inside a #pragma unroll loop: the four
//         unrolled copies define lo and hi four times in one function.
// Bug class: duplicate .reg definitions when asm is emitted more than once (issue 22, facts §3).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: ptxas-error (sm_80) .cu line 16: Duplicate definition of variable 'lo'

#include <cstdint>

// Converts eight floats to four packed half2 words.
__global__ void pack_half2(uint32_t* out, const float* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t packed[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    asm volatile(".reg .b16 lo, hi;\n\t"  // expect: ASM006 at ".reg"
                 "cvt.rn.f16.f32 lo, %1;\n\t"
                 "cvt.rn.f16.f32 hi, %2;\n\t"
                 "mov.b32 %0, {lo, hi};"
                 : "=r"(packed[k])
                 : "f"(in[8 * i + 2 * k]), "f"(in[8 * i + 2 * k + 1]));
  }
  for (int k = 0; k < 4; ++k) out[4 * i + k] = packed[k];
}

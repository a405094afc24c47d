// nvcc-flags: -arch=sm_80
// Defect: a template written as one string literal continued with backslash-newline splices
//         misspells .approx as .aprox on its last line; ptxas: unknown modifier.
// Bug class: misspelt modifiers (NVIDIA/cutlass#1494); softmax exp2 in FlashAttention-style kernels.
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: ptxas-error (sm_80) .cu line 16: Unknown modifier '.aprox'

#include <cstdint>

// exp2(x * scale) for an online softmax.
__device__ __forceinline__ float exp2_scaled(float x, float scale) {
  float r;
  asm("{\n\t\
.reg .f32 t;\n\t\
mul.rn.f32 t, %1, %2;\n\t\
ex2.aprox.ftz.f32 %0, t; }" : "=f"(r) : "f"(x), "f"(scale));  // expect: ISA004 at ".aprox"
  return r;
}

__global__ void softmax_numerators(float* out, const float* logits, float scale) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = exp2_scaled(logits[i], scale);
}

// nvcc-flags: -arch=sm_80
// Fixed twin of isa004_splice_aprox.cu: the modifier is .approx.
// Bug class of the defect: misspelt modifiers (NVIDIA/cutlass#1494); softmax exp2 in
//                          FlashAttention-style kernels.
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// exp2(x * scale) for an online softmax.
__device__ __forceinline__ float exp2_scaled(float x, float scale) {
  float r;
  asm("{\n\t\
.reg .f32 t;\n\t\
mul.rn.f32 t, %1, %2;\n\t\
ex2.approx.ftz.f32 %0, t; }" : "=f"(r) : "f"(x), "f"(scale));
  return r;
}

__global__ void softmax_numerators(float* out, const float* logits, float scale) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = exp2_scaled(logits[i], scale);
}

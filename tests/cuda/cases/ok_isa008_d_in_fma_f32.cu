// nvcc-flags: -arch=sm_80
// Fixed twin of isa008_d_in_fma_f32.cu: the bias is converted to float and passed as "f".
// Bug class of the defect: constraints whose register class does not fit the instruction (issue 22,
//                          facts §2).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

__device__ __forceinline__ float fma_bias(float a, float b, double bias) {
  float r;
  asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(a), "f"(b), "f"(static_cast<float>(bias)));
  return r;
}

__global__ void affine(float* out, const float* x, const float* w, double bias) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = fma_bias(x[i], w[i], bias);
}

// nvcc-flags: -arch=sm_80
// Defect: a "d" (.f64) operand is the addend of fma.rn.f32; ptxas: arguments mismatch.
// Bug class: constraints whose register class does not fit the instruction (issue 22, facts §2).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: ptxas-error (sm_80) .cu line 11: Arguments mismatch for instruction 'fma'

#include <cstdint>

__device__ __forceinline__ float fma_bias(float a, float b, double bias) {
  float r;
  asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(a), "f"(b), "d"(bias));  // expect: ISA008 at "%3"
  return r;
}

__global__ void affine(float* out, const float* x, const float* w, double bias) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = fma_bias(x[i], w[i], bias);
}

// nvcc-flags: -arch=sm_80
// Fixed twin of asm005_ld_global_truncated.cu: the pointer is a 64-bit "l" operand.
// Bug class of the defect: address width (NVIDIA/cccl#1635, jax-ml/jax#23928); .nc loads
//                          (DeepEP#136).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

#define LD_NC ".nc"

// Read-only scalar load (the __ldg shape).
__device__ __forceinline__ float ldg_f32(const float* ptr) {
  float v;
  asm("ld.global" LD_NC ".f32 %0, [%1];"
      : "=f"(v)
      : "l"(ptr));
  return v;
}

__global__ void axpy(float* y, const float* x, float a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] += a * ldg_f32(x + i);
}

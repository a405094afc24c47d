// nvcc-flags: -arch=sm_80
// Defect: a global pointer is truncated to 32 bits for an "r" operand of ld.global.nc (template
//         built with the LD_NC macro); ptxas stops on the 32-bit address.
// Bug class: address width (NVIDIA/cccl#1635, jax-ml/jax#23928); .nc loads (DeepEP#136).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: ptxas-error (sm_80): 32-Bit compilation is no longer supported (after "Program uses 32-bit address on line '43' which is conflicting with .address_size" at .cu line 15)

#include <cstdint>

#define LD_NC ".nc"

// Read-only scalar load (the __ldg shape).
__device__ __forceinline__ float ldg_f32(const float* ptr) {
  float v;
  asm("ld.global" LD_NC ".f32 %0, [%1];"
      : "=f"(v)
      : "r"(static_cast<uint32_t>(reinterpret_cast<uintptr_t>(ptr))));  // expect: ASM005 at "r"
  return v;
}

__global__ void axpy(float* y, const float* x, float a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] += a * ldg_f32(x + i);
}

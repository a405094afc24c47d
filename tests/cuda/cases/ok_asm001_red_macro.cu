// nvcc-flags: -arch=sm_80
// Fixed twin of asm001_red_macro.cu: the value is %1.
// Bug class of the defect: operand-index mix-ups (NVIDIA/cccl#8402), in asm kept in macros (older
//                          split-K epilogues).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// Fire-and-forget float reduction into global memory (split-K epilogue).
#define RED_ADD_F32(ptr, v) \
  asm volatile("red.global.add.f32 [%0], %1;" ::"l"(ptr), "f"(v) : "memory")

__global__ void splitk_reduce(float* c, const float* partial, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) RED_ADD_F32(c + i, partial[blockIdx.y * n + i]);
}

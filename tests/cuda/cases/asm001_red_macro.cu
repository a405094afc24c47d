// nvcc-flags: -arch=sm_80
// Defect: a function-like macro's asm writes the value as %2; the statement has two operands (%0,
//         %1). nvcc reports it at the macro's use.
// Bug class: operand-index mix-ups (NVIDIA/cccl#8402), in asm kept in macros (older split-K
//            epilogues).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=-); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: nvcc-internal-error line 17: Internal Compiler Error (codegen): "asm operand index requested is larger than the number of asm operands provided!"

#include <cstdint>

// Fire-and-forget float reduction into global memory (split-K epilogue).
#define RED_ADD_F32(ptr, v) \
  asm volatile("red.global.add.f32 [%0], %2;" ::"l"(ptr), "f"(v) : "memory")  // expect: ASM001 at "%2"

__global__ void splitk_reduce(float* c, const float* partial, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) RED_ADD_F32(c + i, partial[blockIdx.y * n + i]);
}

// nvcc-flags: -arch=sm_80
// Defect: the clamp writes the input %1 in place (@p sub.u32 %1, %2, 1) before copying it to the
//         output. nvcc and ptxas accept it.
// Bug class: writing an input operand (NVIDIA/cutlass#1225, NVIDIA/cccl#11554).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// Clamps an index to [0, limit).
__device__ __forceinline__ uint32_t clamp_index(uint32_t idx, uint32_t limit) {
  uint32_t r;
  asm("{\n\t"
      ".reg .pred p;\n\t"
      "setp.ge.u32 p, %1, %2;\n\t"
      "@p sub.u32 %1, %2, 1;\n\t"  // expect: ASM008 at "%1"
      "mov.u32 %0, %1;\n\t"
      "}"
      : "=r"(r)
      : "r"(idx), "r"(limit));
  return r;
}

__global__ void gather_clamped(float* out, const float* in, const uint32_t* idx, uint32_t n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[clamp_index(idx[i], n)];
}

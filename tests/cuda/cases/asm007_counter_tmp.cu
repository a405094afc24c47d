// nvcc-flags: -arch=sm_80
// Defect: a running total is declared write-only ("=r") but the template copies it into a temporary
//         before writing it. nvcc and ptxas accept it.
// Bug class: reading write-only outputs (NVIDIA/cccl#8402, NVIDIA/cccl#11554).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// Adds an increment to a running total kept in a register.
__device__ __forceinline__ void add_to(uint32_t& total, uint32_t inc) {
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "mov.u32 t, %0;\n\t"  // expect: ASM007 at "%0"
      "add.u32 %0, t, %1;\n\t"
      "}"
      : "=r"(total)
      : "r"(inc));
}

__global__ void row_sums(uint32_t* out, const uint32_t* in, int cols) {
  uint32_t total = 0;
  for (int c = 0; c < cols; ++c) add_to(total, in[(blockIdx.x * blockDim.x + threadIdx.x) * cols + c]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = total;
}

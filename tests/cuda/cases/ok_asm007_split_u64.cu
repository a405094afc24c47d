// nvcc-flags: -arch=sm_80
// Fixed twin of asm007_split_u64.cu: the accumulator is read-write ("+l").
// Bug class of the defect: reading write-only outputs (NVIDIA/cccl#8402).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// 64-bit add from two 32-bit halves with carry (big-integer and hashing kernels).
__device__ __forceinline__ void add_u64_carry(uint64_t& acc, uint32_t lo, uint32_t hi) {
  asm("{\n\t"
      ".reg .u32 alo, ahi;\n\t"
      "mov.b64 {alo, ahi}, %0;\n\t"
      "add.cc.u32 alo, alo, %1;\n\t"
      "addc.u32 ahi, ahi, %2;\n\t"
      "mov.b64 %0, {alo, ahi};\n\t"
      "}"
      : "+l"(acc)
      : "r"(lo), "r"(hi));
}

__global__ void sum_u64(uint64_t* out, const uint2* in, int n) {
  uint64_t acc = 0;
  for (int k = 0; k < n; ++k) {
    const uint2 v = in[(blockIdx.x * blockDim.x + threadIdx.x) * n + k];
    add_u64_carry(acc, v.x, v.y);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

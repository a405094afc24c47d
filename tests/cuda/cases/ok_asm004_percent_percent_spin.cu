// nvcc-flags: -arch=sm_80
// Fixed twin of asm004_percent_percent_spin.cu: every %% is a single %, as a statement without
//                                               operands needs.
// Bug class of the defect: templates edited after their operands were removed (issue 22, facts §3).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// Burns about 1000 cycles (used to widen race windows in stress tests). The template once had
// an operand for the cycle count.
__device__ __forceinline__ void spin_1k_cycles() {
  asm volatile(
      "{\n\t"
      ".reg .u64 %start, %now;\n\t"
      ".reg .pred %p;\n\t"
      "mov.u64 %start, %clock64;\n\t"
      "SPIN:\n\t"
      "mov.u64 %now, %clock64;\n\t"
      "sub.u64 %now, %now, %start;\n\t"
      "setp.lt.u64 %p, %now, 1000;\n\t"
      "@%p bra SPIN;\n\t"
      "}" ::: "memory");
}

__global__ void delayed_store(uint32_t* out) {
  spin_1k_cycles();
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

// nvcc-flags: -arch=sm_80
// Fixed twin of asm004_percent_eq_label.cu: the leader lane is an operand (%0), so the statement has
//                                           operands and nvcc expands %=.
// Bug class of the defect: labels made unique with %= (issue 22, facts §3).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// Traps unless the calling lane is the warp's leader (a debug assertion).
__device__ __forceinline__ void assert_leader_lane() {
  asm volatile(
      "{\n\t"
      ".reg .u32 lane;\n\t"
      ".reg .pred p;\n\t"
      "mov.u32 lane, %laneid;\n\t"
      "setp.eq.u32 p, lane, %0;\n\t"
      "@p bra.uni LEADER_%=;\n\t"
      "trap;\n"
      "LEADER_%=:\n\t"
      "}" ::"r"(0u) : "memory");
}

__global__ void leader_only(uint32_t* out) {
  if ((threadIdx.x & 31) == 0) {
    assert_leader_lane();
    out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = 1;
  }
}

// nvcc-flags: -arch=sm_80
// Defect: a per-instance label LEADER_%= in a statement with no operands; nvcc substitutes %= only
//         when the statement has operands, so ptxas sees the text %=.
// Bug class: labels made unique with %= (issue 22, facts §3).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: ptxas-error (sm_80) .cu line 18: Parsing error near '%': syntax error

#include <cstdint>

// Traps unless the calling lane is the warp's leader (a debug assertion).
__device__ __forceinline__ void assert_leader_lane() {
  asm volatile(
      "{\n\t"
      ".reg .u32 lane;\n\t"
      ".reg .pred p;\n\t"
      "mov.u32 lane, %laneid;\n\t"
      "setp.eq.u32 p, lane, 0;\n\t"
      "@p bra.uni LEADER_%=;\n\t"  // expect: ASM004 at "%="
      "trap;\n"
      "LEADER_%=:\n\t"
      "}" ::: "memory");
}

__global__ void leader_only(uint32_t* out) {
  if ((threadIdx.x & 31) == 0) {
    assert_leader_lane();
    out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = 1;
  }
}

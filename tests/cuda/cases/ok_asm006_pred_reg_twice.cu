// nvcc-flags: -arch=sm_80
// Fixed twin of asm006_pred_reg_twice.cu: the template is wrapped in { } so p is local to each
//                                         inlined copy.
// Bug class of the defect: duplicate .reg/label definitions when asm is inlined twice (issue 22,
//                          facts §3; the reason CUTLASS wraps templates in { }).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// "Is zero" as a bool result: the predicate idiom (no predicate constraint exists).
__device__ __forceinline__ bool is_zero(uint32_t x) {
  uint32_t r;
  asm volatile("{\n\t.reg .pred p;\n\t"
               "setp.eq.u32 p, %1, 0;\n\t"
               "selp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(r)
               : "r"(x));
  return r != 0;
}

__global__ void count_zero_pairs(uint32_t* out, const uint32_t* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool lo = is_zero(in[2 * i]);
  const bool hi = is_zero(in[2 * i + 1]);
  out[i] = (lo ? 1u : 0u) + (hi ? 1u : 0u);
}

// nvcc-flags: -arch=sm_80
// Defect: the template declares '.reg .pred p;' at its top level; the helper is inlined twice into
//         one kernel, and ptxas rejects the second definition of p.
// Bug class: duplicate .reg/label definitions when asm is inlined twice (issue 22, facts §3; the
//            reason CUTLASS wraps templates in { }).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: ptxas-error (sm_80) .cu line 14: Duplicate definition of variable 'p'

#include <cstdint>

// "Is zero" as a bool result: the predicate idiom (no predicate constraint exists).
__device__ __forceinline__ bool is_zero(uint32_t x) {
  uint32_t r;
  asm volatile(".reg .pred p;\n\t"  // expect: ASM006 at ".reg"
               "setp.eq.u32 p, %1, 0;\n\t"
               "selp.u32 %0, 1, 0, p;"
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

// nvcc-flags: -arch=sm_80
// Defect: a function-like macro's template declares '.reg .pred nz;' at top level; the macro is used
//         twice in one kernel, so ptxas sees nz defined twice.
// Bug class: duplicate .reg definitions from asm in macros (issue 22, facts §3).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: ptxas-error (sm_80) .cu line 12: Duplicate definition of variable 'nz'

#include <cstdint>

// Debug check: traps when a value is non-zero.
#define DEVICE_CHECK_ZERO(x) \
  asm volatile(".reg .pred nz;\n\tsetp.ne.u32 nz, %0, 0;\n\t@nz trap;" ::"r"(x) : "memory")  // expect: ASM006 at ".reg"

__global__ void checked_copy(uint32_t* out, const uint32_t* in, const uint32_t* flags) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  DEVICE_CHECK_ZERO(flags[0]);
  out[i] = in[i];
  DEVICE_CHECK_ZERO(flags[1]);
}

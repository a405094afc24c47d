// nvcc-flags: -arch=sm_80
// Fixed twin of asm006_macro_twice.cu: the macro's template is wrapped in { }.
// Bug class of the defect: duplicate .reg definitions from asm in macros (issue 22, facts §3).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// Debug check: traps when a value is non-zero.
#define DEVICE_CHECK_ZERO(x) \
  asm volatile("{ .reg .pred nz;\n\tsetp.ne.u32 nz, %0, 0;\n\t@nz trap; }" ::"r"(x) : "memory")

__global__ void checked_copy(uint32_t* out, const uint32_t* in, const uint32_t* flags) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  DEVICE_CHECK_ZERO(flags[0]);
  out[i] = in[i];
  DEVICE_CHECK_ZERO(flags[1]);
}

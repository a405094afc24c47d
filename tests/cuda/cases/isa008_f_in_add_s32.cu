// nvcc-flags: -arch=sm_80
// Defect: an "f" (.f32) operand feeds an integer add.s32; ptxas: arguments mismatch.
// Bug class: constraints whose register class does not fit the instruction (issue 22, facts §2).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: ptxas-error (sm_80) .cu line 12: Arguments mismatch for instruction 'add'

#include <cstdint>

// Row offset plus a delta that was changed to float upstream.
__device__ __forceinline__ int add_offset(int base, float delta) {
  int r;
  asm("add.s32 %0, %1, %2;" : "=r"(r) : "r"(base), "f"(delta));  // expect: ISA008 at "%2"
  return r;
}

__global__ void offsets(int* out, const int* base, const float* delta) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = add_offset(base[i], delta[i]);
}

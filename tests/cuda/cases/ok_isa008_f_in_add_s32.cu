// nvcc-flags: -arch=sm_80
// Fixed twin of isa008_f_in_add_s32.cu: the delta is converted to int in C++ and passed as "r".
// Bug class of the defect: constraints whose register class does not fit the instruction (issue 22,
//                          facts §2).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// Row offset plus a delta that was changed to float upstream.
__device__ __forceinline__ int add_offset(int base, float delta) {
  int r;
  asm("add.s32 %0, %1, %2;" : "=r"(r) : "r"(base), "r"(static_cast<int>(delta)));
  return r;
}

__global__ void offsets(int* out, const int* base, const float* delta) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = add_offset(base[i], delta[i]);
}

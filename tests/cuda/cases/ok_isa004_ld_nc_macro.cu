// nvcc-flags: -arch=sm_80
// Fixed twin of isa004_ld_nc_macro.cu: the macro is ".nc".
// Bug class of the defect: .nc loads behind a macro (DeepEP#136); misspelt modifiers
//                          (NVIDIA/cutlass#1494).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

#define LD_NC ".nc"

__device__ __forceinline__ uint32_t ld_nc_u32(const uint32_t* ptr) {
  uint32_t v;
  asm volatile("ld.global" LD_NC ".u32 %0, [%1];" : "=r"(v) : "l"(ptr));
  return v;
}

__global__ void copy_words(uint32_t* out, const uint32_t* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = ld_nc_u32(in + i);
}

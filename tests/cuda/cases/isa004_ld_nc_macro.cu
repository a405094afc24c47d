// nvcc-flags: -arch=sm_80
// Defect: the object-like macro LD_NC that supplies the load's cache modifier is misspelt ".nv";
//         ptxas: unknown modifier. The finding belongs on the macro's string.
// Bug class: .nc loads behind a macro (DeepEP#136); misspelt modifiers (NVIDIA/cutlass#1494).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: ptxas-error (sm_80) .cu line 14: Unknown modifier '.nv'

#include <cstdint>

#define LD_NC ".nv"  // expect: ISA004 at ".nv"

__device__ __forceinline__ uint32_t ld_nc_u32(const uint32_t* ptr) {
  uint32_t v;
  asm volatile("ld.global" LD_NC ".u32 %0, [%1];" : "=r"(v) : "l"(ptr));
  return v;
}

__global__ void copy_words(uint32_t* out, const uint32_t* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = ld_nc_u32(in + i);
}

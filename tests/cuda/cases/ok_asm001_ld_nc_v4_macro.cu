// nvcc-flags: -arch=sm_80
// Fixed twin of asm001_ld_nc_v4_macro.cu: the address is %4.
// Bug class of the defect: operand-index mix-ups (NVIDIA/cccl#8402); .nc loads behind a macro
//                          (DeepEP#136).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// Read-only 128-bit load; LD_NC is the switch DeepEP-style code flips to "" for data that other
// SMs write while the kernel runs.
#define LD_NC ".nc"

__device__ __forceinline__ uint4 ld_nc_v4(const uint4* ptr) {
  uint4 v;
  asm volatile("ld.global" LD_NC ".v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(ptr));
  return v;
}

__global__ void copy_v4(uint4* out, const uint4* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = ld_nc_v4(in + i);
}

// nvcc-flags: -arch=sm_80
// Fixed twin of isa008_h_in_shfl_b32.cu: the value is widened to 32 bits and passed as "r".
// Bug class of the defect: constraints whose register class does not fit the instruction (issue 22,
//                          facts §2).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// Shuffles the bits of a half down the warp.
__device__ __forceinline__ unsigned short shfl_down_u16(unsigned short v, int delta) {
  uint32_t r;
  asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;"
               : "=r"(r)
               : "r"(static_cast<uint32_t>(v)), "r"(delta));
  return static_cast<unsigned short>(r);
}

__global__ void shift_halves(unsigned short* out, const unsigned short* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = shfl_down_u16(in[i], 1);
}

// nvcc-flags: -arch=sm_80
// Defect: a 16-bit "h" operand (.b16 register) feeds shfl.sync.down.b32, which needs a 32-bit
//         register; ptxas: arguments mismatch.
// Bug class: constraints whose register class does not fit the instruction (issue 22, facts §2).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: ptxas-error (sm_80) .cu line 13: Arguments mismatch for instruction 'shfl'

#include <cstdint>

// Shuffles the bits of a half down the warp.
__device__ __forceinline__ unsigned short shfl_down_u16(unsigned short v, int delta) {
  uint32_t r;
  asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;"  // expect: ISA008 at "%1"
               : "=r"(r)
               : "h"(v), "r"(delta));
  return static_cast<unsigned short>(r);
}

__global__ void shift_halves(unsigned short* out, const unsigned short* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = shfl_down_u16(in[i], 1);
}

// nvcc-flags: -arch=sm_90
// Defect: setmaxnreg (sm_90a only) with no guard, built with -arch=sm_90, whose only pass
//         (compute_90) cannot emit it.
// Bug class: wrong -arch for arch-specific instructions (SageAttention#291, cutlass#1874).
// Checked with: nvcc -arch=sm_90 = compute_90 (ptxas -arch=sm_90); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_90: ptxas-error (sm_90) .cu line 13: Instruction 'setmaxnreg.dec' not supported on .target 'sm_90'

#include <cstdint>

// Producer warpgroups of a warp-specialized kernel give registers back.
template <uint32_t RegCount>
__device__ __forceinline__ void warpgroup_reg_dealloc() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(RegCount));  // expect: ASM013 at "setmaxnreg"
}

__global__ void __launch_bounds__(384, 1) producer_consumer(float* out, const float* in) {
  const int warpgroup = threadIdx.x / 128;
  if (warpgroup == 0) {
    warpgroup_reg_dealloc<40>();
    return;
  }
  out[blockIdx.x * 256 + threadIdx.x - 128] = 2.f * in[blockIdx.x * 256 + threadIdx.x - 128];
}

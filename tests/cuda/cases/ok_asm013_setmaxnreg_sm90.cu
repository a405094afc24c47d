// nvcc-flags: -arch=sm_90
// Fixed twin of asm013_setmaxnreg_sm90.cu: the statement is guarded by __CUDA_ARCH_FEAT_SM90_ALL (no
//                                          setmaxnreg without the arch-specific pass).
// Bug class of the defect: wrong -arch for arch-specific instructions (SageAttention#291,
//                          cutlass#1874).
// Checked with: nvcc -arch=sm_90 = compute_90 (ptxas -arch=sm_90); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_90)

#include <cstdint>

// Producer warpgroups of a warp-specialized kernel give registers back.
template <uint32_t RegCount>
__device__ __forceinline__ void warpgroup_reg_dealloc() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(RegCount));
#endif
}

__global__ void __launch_bounds__(384, 1) producer_consumer(float* out, const float* in) {
  const int warpgroup = threadIdx.x / 128;
  if (warpgroup == 0) {
    warpgroup_reg_dealloc<40>();
    return;
  }
  out[blockIdx.x * 256 + threadIdx.x - 128] = 2.f * in[blockIdx.x * 256 + threadIdx.x - 128];
}

// nvcc-flags: -arch=sm_90a
// Fixed twin of asm013_wgmma_guard_arch900.cu: the guard also requires __CUDA_ARCH_FEAT_SM90_ALL,
//                                              which only the compute_90a pass defines.
// Bug class of the defect: guards that let the plain pass of an arch-specific target reach wgmma
//                          (flash-attention#2332, cutlass#1874).
// Checked with: nvcc -arch=sm_90a = compute_90 (ptxas -arch=compute_90), compute_90a (ptxas -arch=sm_90a); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_90, compute_90a)

#include <cstdint>

// One 64x8x16 bf16 warpgroup MMA step (CUTLASS SM90_64x8x16_F32BF16BF16_SS).
template <int ScaleA, int ScaleB, int TransA, int TransB>
__device__ __forceinline__ void wgmma_64x8x16(float (&d)[4], uint64_t desc_a, uint64_t desc_b, int scale_d) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %6, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3},"
      " %4,"
      " %5,"
      " p, %7, %8, %9, %10;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(ScaleA), "n"(ScaleB), "n"(TransA), "n"(TransB));
#else
  __trap();
#endif
}

// The fence/commit/wait helpers are CUTLASS's, with CUTLASS's guard.
__device__ __forceinline__ void warpgroup_arrive() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void warpgroup_commit_batch() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}

template <int N>
__device__ __forceinline__ void warpgroup_wait() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#endif
}

__global__ void wgmma_step(float* out, const uint64_t* descs) {
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  warpgroup_arrive();
  wgmma_64x8x16<1, 1, 0, 0>(d, descs[0], descs[1], 0);
  warpgroup_commit_batch();
  warpgroup_wait<0>();
  for (int i = 0; i < 4; ++i) out[threadIdx.x * 4 + i] = d[i];
}

// nvcc-flags: -arch=sm_90a
// Fixed twin of asm013_wgmma_fence_unguarded.cu: the statement is guarded by
//                                                __CUDA_ARCH_FEAT_SM90_ALL (only the compute_90a
//                                                pass has it), with a trap otherwise, as CUTLASS
//                                                does.
// Bug class of the defect: arch guards that let the wrong pass reach an instruction
//                          (flash-attention#2332, cutlass#1874).
// Checked with: nvcc -arch=sm_90a = compute_90 (ptxas -arch=compute_90), compute_90a (ptxas -arch=sm_90a); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_90, compute_90a)

#include <cstdint>

// CUTLASS's warpgroup_arrive() without its guard.
__device__ __forceinline__ void warpgroup_arrive() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#else
  __trap();
#endif
}

__global__ void mainloop_prologue(float* out) {
  warpgroup_arrive();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 0.f;
}

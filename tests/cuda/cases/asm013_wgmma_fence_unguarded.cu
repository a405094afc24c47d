// nvcc-flags: -arch=sm_90a
// Defect: wgmma.fence with no arch guard; -arch=sm_90a also runs a plain compute_90 pass, which
//         cannot emit wgmma, so ptxas fails there (compute_90 from -arch=sm_90a).
// Bug class: arch guards that let the wrong pass reach an instruction (flash-attention#2332,
//            cutlass#1874).
// Checked with: nvcc -arch=sm_90a = compute_90 (ptxas -arch=compute_90), compute_90a (ptxas -arch=sm_90a); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_90: ptxas-error (compute_90) .cu line 13: Instruction 'wgmma.fence' not supported on .target 'sm_90'; compute_90a: ok

#include <cstdint>

// CUTLASS's warpgroup_arrive() without its guard.
__device__ __forceinline__ void warpgroup_arrive() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");  // expect: ASM013 at "wgmma.fence"
}

__global__ void mainloop_prologue(float* out) {
  warpgroup_arrive();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 0.f;
}

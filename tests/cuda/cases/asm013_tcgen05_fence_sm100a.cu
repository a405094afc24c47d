// nvcc-flags: -arch=sm_100a
// Defect: tcgen05.fence with no guard; -arch=sm_100a also runs a plain compute_100 pass, which
//         cannot emit tcgen05, so ptxas fails there (compute_100 from -arch=sm_100a).
// Bug class: arch guards that let the wrong pass reach an instruction (flash-attention#2332,
//            cutlass#1874).
// Checked with: nvcc -arch=sm_100a = compute_100 (ptxas -arch=compute_100), compute_100a (ptxas -arch=sm_100a); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_100: ptxas-error (compute_100) .cu line 13: Instruction 'tcgen05.fence' not supported on .target 'sm_100'; compute_100a: ok

#include <cstdint>

// Orders tensor-memory accesses before a thread barrier (CUTLASS umma_arrive prologue).
__device__ __forceinline__ void tcgen05_before_thread_sync() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");  // expect: ASM013 at "tcgen05.fence"
}

__global__ void tmem_handoff(uint32_t* out) {
  tcgen05_before_thread_sync();
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

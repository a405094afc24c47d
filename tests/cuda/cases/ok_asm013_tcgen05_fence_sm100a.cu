// nvcc-flags: -arch=sm_100a
// Fixed twin of asm013_tcgen05_fence_sm100a.cu: the statement is guarded by
//                                               __CUDA_ARCH_FEAT_SM100_ALL (only the compute_100a
//                                               pass has it).
// Bug class of the defect: arch guards that let the wrong pass reach an instruction
//                          (flash-attention#2332, cutlass#1874).
// Checked with: nvcc -arch=sm_100a = compute_100 (ptxas -arch=compute_100), compute_100a (ptxas -arch=sm_100a); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_100, compute_100a)

#include <cstdint>

// Orders tensor-memory accesses before a thread barrier (CUTLASS umma_arrive prologue).
__device__ __forceinline__ void tcgen05_before_thread_sync() {
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
#endif
}

__global__ void tmem_handoff(uint32_t* out) {
  tcgen05_before_thread_sync();
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

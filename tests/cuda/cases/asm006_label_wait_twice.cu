// nvcc-flags: -arch=sm_90
// Defect: the wait loop's label LAB_WAIT stands before the template's { }; the helper is inlined for
//         two barriers in one kernel, and ptxas rejects the duplicate label.
// Bug class: duplicate labels when asm is inlined twice (CUTLASS ClusterBarrier::wait keeps its
//            labels inside { }).
// Checked with: nvcc -arch=sm_90 = compute_90 (ptxas -arch=sm_90); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_90: ptxas-error (sm_90) .cu line 14: Duplicate definition of label 'LAB_WAIT'

#include <cstdint>

// Spin until the barrier's phase completes (CUTLASS ClusterBarrier::wait).
__device__ __forceinline__ void mbarrier_wait(uint32_t bar, uint32_t phase) {
  asm volatile(
      "LAB_WAIT:\n\t"  // expect: ASM006 at "LAB_WAIT"
      "{\n\t"
      ".reg .pred P1;\n\t"
      "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n\t"
      "@P1 bra DONE;\n\t"
      "bra.uni LAB_WAIT;\n\t"
      "DONE:\n\t"
      "}"
      ::"r"(bar), "r"(phase)
      : "memory");
}

__global__ void pingpong(uint32_t* out) {
  __shared__ alignas(8) uint64_t bars[2];
  const uint32_t full = static_cast<uint32_t>(__cvta_generic_to_shared(&bars[0]));
  const uint32_t empty = static_cast<uint32_t>(__cvta_generic_to_shared(&bars[1]));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(full), "r"(blockDim.x) : "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(empty), "r"(blockDim.x) : "memory");
  }
  __syncthreads();
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(full) : "memory");
  mbarrier_wait(full, 0);
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(empty) : "memory");
  mbarrier_wait(empty, 0);
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

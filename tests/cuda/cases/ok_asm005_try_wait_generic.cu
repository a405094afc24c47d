// nvcc-flags: -arch=sm_90
// Fixed twin of asm005_try_wait_generic.cu: the wait names the state space
//                                           (mbarrier.try_wait.parity.shared::cta.b64).
// Bug class of the defect: generic vs shared address width (NVIDIA/cccl#1635, jax-ml/jax#23928).
// Checked with: nvcc -arch=sm_90 = compute_90 (ptxas -arch=sm_90); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_90)

#include <cstdint>

// One probe of an mbarrier phase (CUTLASS ClusterBarrier::try_wait).
__device__ __forceinline__ bool mbarrier_try_wait_parity(uint32_t bar_addr, uint32_t phase) {
  uint32_t ready;
  asm volatile(
      "{\n\t"
      ".reg .pred p;\n\t"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t"
      "}"
      : "=r"(ready)
      : "r"(bar_addr),
        "r"(phase)
      : "memory");
  return ready != 0;
}

__global__ void wait_phase0(uint32_t* out) {
  __shared__ alignas(8) uint64_t bar;
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(addr), "r"(blockDim.x) : "memory");
  __syncthreads();
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(addr) : "memory");
  while (!mbarrier_try_wait_parity(addr, 0)) {
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

// nvcc-flags: -arch=sm_90
// Fixed twin of asm005_mbarrier_init_generic.cu: the instruction names the state space
//                                                (mbarrier.init.shared::cta.b64), which takes the
//                                                32-bit address.
// Bug class of the defect: generic vs shared address width (NVIDIA/cccl#1635, jax-ml/jax#23928).
// Checked with: nvcc -arch=sm_90 = compute_90 (ptxas -arch=sm_90); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_90)

#include <cstdint>

__device__ __forceinline__ void mbarrier_init(uint64_t* bar, uint32_t count) {
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;"
               ::"r"(addr),
               "r"(count)
               : "memory");
}

__global__ void barrier_roundtrip(uint32_t* out) {
  __shared__ alignas(8) uint64_t bar;
  if (threadIdx.x == 0) mbarrier_init(&bar, blockDim.x);
  __syncthreads();
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  uint64_t state;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(addr) : "memory");
  uint32_t done = 0;
  while (!done) {
    asm volatile(
        "{\n\t.reg .pred p;\n\tmbarrier.test_wait.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(done)
        : "r"(addr), "l"(state)
        : "memory");
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = done;
}

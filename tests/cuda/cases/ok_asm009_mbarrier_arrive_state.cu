// nvcc-flags: -arch=sm_80
// Fixed twin of asm009_mbarrier_arrive_state.cu: the statement has a "memory" clobber (CCCL's
//                                                generated-wrapper style), so nvcc keeps it.
// Bug class of the defect: missing volatile / "memory" on side-effecting asm (flashinfer#5125,
//                          vllm#2760).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

__device__ __forceinline__ uint64_t mbarrier_arrive(uint32_t bar) {
  uint64_t state;
  asm("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(bar) : "memory");
  return state;
}

__device__ __forceinline__ void mbarrier_wait_parity(uint32_t bar, uint32_t phase) {
  uint32_t done = 0;
  while (!done) {
    asm volatile(
        "{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(done)
        : "r"(bar), "r"(phase)
        : "memory");
  }
}

__global__ void block_rendezvous(uint32_t* out) {
  __shared__ alignas(8) uint64_t bar;
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(addr), "r"(blockDim.x) : "memory");
  __syncthreads();
  mbarrier_arrive(addr);
  mbarrier_wait_parity(addr, 0);
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

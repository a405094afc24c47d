// nvcc-flags: -arch=sm_90
// Defect: non-volatile mbarrier.arrive.expect_tx with an output and no "memory" clobber; the
//         producer ignores the state, nvcc deletes the statement, and the barrier's transaction
//         count never matches the bulk copy. nvcc and ptxas accept it.
// Bug class: missing volatile / "memory" on side-effecting asm (flashinfer#5125, vllm#2760).
// Checked with: nvcc -arch=sm_90 = compute_90 (ptxas -arch=sm_90); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_90); PTX: compute_90: deleted

#include <cstdint>

// Producer side of a TMA-style pipeline stage: arms the barrier with the bytes to expect.
__device__ __forceinline__ uint64_t arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  uint64_t state;
  asm("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;"  // expect: ASM009 at "mbarrier"
      : "=l"(state)
      : "r"(bar), "r"(bytes));
  return state;
}

__global__ void bulk_stage(float* out, const float* in) {
  __shared__ alignas(128) float tile[1024];
  __shared__ alignas(8) uint64_t bar;
  const uint32_t bar_addr = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_addr) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    arrive_expect_tx(bar_addr, sizeof(tile));
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
        ::"r"(dst), "l"(in + blockIdx.x * 1024), "r"(static_cast<uint32_t>(sizeof(tile))), "r"(bar_addr)
        : "memory");
  }
  uint32_t done = 0;
  while (!done) {
    asm volatile(
        "{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n\tselp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(done)
        : "r"(bar_addr)
        : "memory");
  }
  out[blockIdx.x * 1024 + threadIdx.x] = tile[threadIdx.x];
}

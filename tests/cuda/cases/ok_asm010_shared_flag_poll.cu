// nvcc-flags: -arch=sm_80
// Fixed twin of asm010_shared_flag_poll.cu: the load is asm volatile.
// Bug class of the defect: missing volatile on polling loads (flashinfer#5125, vllm#2760).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

__device__ __forceinline__ uint32_t lds_volatile(uint32_t addr) {
  uint32_t v;
  asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr));
  return v;
}

// Warp 0 produces a payload in shared memory and raises a flag; warp 1 waits for it.
__global__ void warp_handoff(uint32_t* out, const uint32_t* in) {
  __shared__ uint32_t flag;
  __shared__ uint32_t payload[32];
  const uint32_t flag_addr = static_cast<uint32_t>(__cvta_generic_to_shared(&flag));
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  if (threadIdx.x < 32) {
    payload[threadIdx.x] = in[blockIdx.x * 32 + threadIdx.x];
    __threadfence_block();
    __syncwarp();
    if (threadIdx.x == 0) asm volatile("st.volatile.shared.u32 [%0], 1;" ::"r"(flag_addr) : "memory");
  } else if (threadIdx.x < 64) {
    while (lds_volatile(flag_addr) == 0) {
    }
    __threadfence_block();
    out[blockIdx.x * 32 + threadIdx.x - 32] = payload[threadIdx.x - 32];
  }
}

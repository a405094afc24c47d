// SNC010 defect: thread 0 spins on a plain (weak) load of a flag that thread 32 (another warp)
// sets with a release store. The weak load may be hoisted or served stale, and it races with
// the store; the reader then consumes the data without an acquire. The spin is bounded so the
// kernel always terminates.
#include <cuda/atomic>
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned* data = out + 4096 + blockIdx.x;
  unsigned* flag = out + 8192 + blockIdx.x * 32;
  if (threadIdx.x == 32) {
    *data = in[blockIdx.x] + 42;
    cuda::atomic_ref<unsigned, cuda::thread_scope_block>(*flag).store(1u, cuda::memory_order_release);
  }
  if (threadIdx.x == 0) {
    #pragma unroll 1
    for (unsigned it = 0; it < (1u << 18); ++it) {
      if (*flag != 0) break;  // expect: SNC010
      __nanosleep(64);
    }
    out[blockIdx.x] = *data;
  }
}

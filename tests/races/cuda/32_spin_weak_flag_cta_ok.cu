// SNC010 twin: the spin reads the flag with cuda::atomic_ref<..., thread_scope_block>::load(acquire).
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
      if (cuda::atomic_ref<unsigned, cuda::thread_scope_block>(*flag).load(cuda::memory_order_acquire) != 0) break;
      __nanosleep(64);
    }
    out[blockIdx.x] = *data;
  }
}

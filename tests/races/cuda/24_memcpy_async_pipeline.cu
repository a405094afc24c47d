// SNC006 defect: cuda::memcpy_async into s[tid] through a thread-scope cuda::pipeline; the
// thread reads s[tid] before pipe.consumer_wait().
#include <cuda/pipeline>
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ alignas(16) unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&s[tid], &in[g], cuda::aligned_size_t<4>(sizeof(unsigned)), pipe);
  pipe.producer_commit();
  unsigned v = s[tid];  // expect: SNC006
  pipe.consumer_wait();
  pipe.consumer_release();
  out[g] = v + 1;
}

// SNC006 defect: __pipeline_memcpy_async fills s[tid] (cp.async), and the thread reads s[tid]
// before __pipeline_wait_prior(0) has completed the copy.
#include <cuda_pipeline.h>
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ alignas(16) unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  __pipeline_memcpy_async(&s[tid], &in[g], sizeof(unsigned));
  __pipeline_commit();
  unsigned v = s[tid];  // expect: SNC006
  __pipeline_wait_prior(0);
  out[g] = v + 1;
}

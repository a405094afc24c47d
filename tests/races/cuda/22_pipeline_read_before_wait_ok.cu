// SNC006 twin: the read of s[tid] comes after __pipeline_wait_prior(0).
#include <cuda_pipeline.h>
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ alignas(16) unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  __pipeline_memcpy_async(&s[tid], &in[g], sizeof(unsigned));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  unsigned v = s[tid];
  out[g] = v + 1;
}

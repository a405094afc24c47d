// SNC001 defect: __syncthreads() inside `if (threadIdx.x < 16)`; threads 16..63 (including
// lanes 16..31 of warp 0) skip the barrier and carry on with other work.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[16];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  if (tid < 16) {
    s[tid] = in[g] + tid;
    __syncthreads();  // expect: SNC001
    out[g] = s[15 - tid];
  } else {
    out[g] = in[g] * 3 + tid;
  }
}

// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// SNC001 defect: __syncthreads() under a branch on a word each thread loaded itself
// (in[g] > 0): the threads whose word is 0 skip the barrier and go on to their store.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  unsigned v = in[g];
  s[tid] = v;
  if (v > 0) {
    __syncthreads();  // expect: SNC001
    v += s[tid ^ 1];
  }
  out[g] = v;
}

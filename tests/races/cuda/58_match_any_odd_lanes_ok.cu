// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// SNC002 twin: the mask names the odd lanes, which execute the match.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  unsigned m = 0;
  if (tid & 1) m = __match_any_sync(0xaaaaaaaau, in[g]);
  s[tid] = m;
  __syncthreads();
  out[g] = s[tid ^ 1];
}

// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// SNC001 twin: every thread reaches the barrier; the loaded word only guards the use.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  unsigned v = in[g];
  s[tid] = v;
  __syncthreads();
  if (v > 0) v += s[tid ^ 1];
  out[g] = v;
}

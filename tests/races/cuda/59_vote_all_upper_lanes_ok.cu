// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// SNC002 twin: the mask names lanes 8..31, which execute the vote.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned lane = threadIdx.x % 32;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a = 0;
  if (lane >= 8) a = __all_sync(0xffffff00u, in[g] != 0);
  out[g] = __shfl_sync(0xffffffffu, a, 31);
}

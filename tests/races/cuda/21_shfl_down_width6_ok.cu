// SNC003 twin: the shuffle-down uses width 8, a power of two.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[g] + threadIdx.x;
  v += __shfl_down_sync(0xffffffffu, v, 2, 8);
  out[g] = v;
}

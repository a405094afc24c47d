// SNC003 twin: the butterfly shuffle uses width 16, a power of two.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[g] + threadIdx.x;
  v += __shfl_xor_sync(0xffffffffu, v, 1, 16);
  out[g] = v;
}

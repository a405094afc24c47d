// SNC003 defect: __shfl_down_sync with width 6, which is not a power of two (undefined result).
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[g] + threadIdx.x;
  v += __shfl_down_sync(0xffffffffu, v, 2, 6);  // expect: SNC003
  out[g] = v;
}

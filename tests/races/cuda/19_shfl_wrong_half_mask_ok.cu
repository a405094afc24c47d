// SNC002 twin: lanes 16..31 shuffle with the mask of their own half-warp and a source lane in it.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned lane = threadIdx.x & 31;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[g] + lane;
  if (lane >= 16) v = __shfl_sync(0xffff0000u, v, 16);
  out[g] = v;
}

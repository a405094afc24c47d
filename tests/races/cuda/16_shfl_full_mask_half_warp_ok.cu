// SNC002 twin: the mask names exactly the lanes that execute the shuffle (lanes 0..15).
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned lane = threadIdx.x & 31;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[g] + lane;
  if (lane < 16) v = __shfl_sync(0x0000ffffu, v, 0);
  out[g] = v;
}

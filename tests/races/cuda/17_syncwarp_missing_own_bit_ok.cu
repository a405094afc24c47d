// SNC002 twin: the mask 0xffff names exactly lanes 0..15, the lanes that call __syncwarp.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned lane = threadIdx.x & 31;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[g] + lane;
  if (lane < 16) __syncwarp(0x0000ffffu);
  out[g] = v;
}

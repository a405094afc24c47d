// SNC002 defect: lanes 0..15 call __syncwarp(0xfffe); lane 0 executes it although its own bit
// is clear in the mask.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned lane = threadIdx.x & 31;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[g] + lane;
  if (lane < 16) __syncwarp(0x0000fffeu);  // expect: SNC002
  out[g] = v;
}

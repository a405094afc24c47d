// SNC002 defect: lanes 16..31 execute __shfl_sync(0x0000ffff, v, 0): the mask names the other
// half-warp and excludes every calling lane.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned lane = threadIdx.x & 31;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[g] + lane;
  if (lane >= 16) v = __shfl_sync(0x0000ffffu, v, 0);  // expect: SNC002
  out[g] = v;
}

// SNC002 defect: __shfl_sync with the full mask 0xffffffff inside `if (lane < 16)`; lanes 16..31
// are named in the mask but never execute the shuffle.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned lane = threadIdx.x & 31;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[g] + lane;
  if (lane < 16) v = __shfl_sync(0xffffffffu, v, 0);  // expect: SNC002
  out[g] = v;
}

// SNC002 defect: __ballot_sync(0xffffffff, ...) inside a branch taken only by the odd lanes;
// the even lanes named in the mask never reach it.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned lane = threadIdx.x & 31;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned b = 0;
  if (lane & 1) b = __ballot_sync(0xffffffffu, in[g] < lane);  // expect: SNC002
  out[g] = b;
}

// SNC002 twin: the mask 0xaaaaaaaa names exactly the odd lanes that execute the ballot.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned lane = threadIdx.x & 31;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned b = 0;
  if (lane & 1) b = __ballot_sync(0xaaaaaaaau, in[g] < lane);
  out[g] = b;
}

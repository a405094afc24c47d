// SNC011 defect: each block stores its partial result, then takes a ticket; the block that takes
// the last ticket adds up the partials. The fence between the store and the ticket is
// __threadfence_block() (membar.cta): its scope is the block, so it does not order the partial's
// store for the other blocks, and the last block may read a stale partial.
// launch: 2 64
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned last;
  unsigned tid = threadIdx.x;
  if (tid == 0) {
    out[8192 + blockIdx.x] = in[blockIdx.x] + blockIdx.x + 1;
    __threadfence_block();  // expect: SNC011
    unsigned ticket = atomicAdd(&out[4096], 1u);
    last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (last && tid == 0) {
    unsigned sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) sum += *(volatile unsigned*)&out[8192 + b];
    out[0] = sum;
  }
}

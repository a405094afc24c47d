// RAC002 defect: thread 0 of every block stores to out[0]; the address does not depend on
// blockIdx, so the plain stores of different CTAs race (write-write).
// launch: 2 64
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  if (threadIdx.x == 0) out[0] = in[blockIdx.x] + blockIdx.x + 1;  // expect: RAC002
}

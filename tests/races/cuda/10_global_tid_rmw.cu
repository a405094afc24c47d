// RAC002 defect: out[threadIdx.x] += ... with plain loads and stores. Every block updates the
// same 64 words, so the read-modify-writes of different CTAs race.
// launch: 2 64
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned tid = threadIdx.x;
  out[tid] += in[blockIdx.x * 64 + tid] + 1;  // expect: RAC002
}

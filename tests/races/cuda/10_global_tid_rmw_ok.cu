// RAC002 twin: the cross-block accumulation uses atomicAdd.
// launch: 2 64
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned tid = threadIdx.x;
  atomicAdd(&out[tid], in[blockIdx.x * 64 + tid] + 1);
}

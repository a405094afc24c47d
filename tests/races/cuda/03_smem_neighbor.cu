// RAC001 defect: thread tid stores s[tid] and then reads s[tid + 1], which thread tid + 1
// stores in the same barrier interval.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  s[tid] = in[g] + tid;                    // expect: RAC001
  out[g] = tid < 63 ? s[tid + 1] : 0u;     // expect: RAC001
}

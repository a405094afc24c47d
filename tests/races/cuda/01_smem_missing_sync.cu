// RAC001 defect: each thread stores its own slot s[tid], then reads the mirrored slot
// s[63 - tid] that another thread stores, with no __syncthreads() between the two.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  s[tid] = in[g] + tid;  // expect: RAC001
  out[g] = s[63 - tid];  // expect: RAC001
}

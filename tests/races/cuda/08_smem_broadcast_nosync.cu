// RAC001 defect: thread 0 stores a shared value that all threads read in the same barrier
// interval (broadcast without __syncthreads).
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) s = in[blockIdx.x] + 1;  // expect: RAC001
  out[g] = s + threadIdx.x;                      // expect: RAC001
}

// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// SNC001 defect: a block-stride loop over a row of n words with __syncthreads() in its body:
// the trip count is (n - tid) / blockDim.x rounded up, which differs between threads unless n
// is a multiple of the block size.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned acc = 0;
  #pragma unroll 1
  for (unsigned i = tid; i < n; i += blockDim.x) {
    s[tid] = in[i];
    __syncthreads();  // expect: SNC001
    acc += s[tid ^ 1];
    __syncthreads();  // expect: SNC001
  }
  out[blockIdx.x * blockDim.x + tid] = acc;
}

// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// SNC001 twin: the loop runs the same number of iterations in every thread (its bound is
// a multiple of the block size); the bound check moves into the body.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned acc = 0;
  #pragma unroll 1
  for (unsigned base = 0; base < n; base += blockDim.x) {
    unsigned i = base + tid;
    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    acc += s[tid ^ 1];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + tid] = acc;
}

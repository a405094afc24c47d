// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// SNC001 twin: the loop runs the same number of iterations in every thread of the block (the
// block's first element decides), and the bound check moves into the body.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned acc = 0;
  #pragma unroll 1
  for (unsigned base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
    unsigned i = base + tid;
    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    acc += s[(tid + 1) % blockDim.x];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + tid] = acc;
}

// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// SNC001 twin: the loop runs a fixed 3 iterations in every thread (the largest trip count);
// the loaded trip count only guards the use inside the body.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  unsigned trips = in[g] % 4, acc = 0;
  #pragma unroll 1
  for (unsigned i = 0; i < 3; ++i) {
    s[tid] = acc + i;
    __syncthreads();
    if (i < trips) acc += s[(tid + 1) & 63];
    __syncthreads();
  }
  out[g] = acc;
}

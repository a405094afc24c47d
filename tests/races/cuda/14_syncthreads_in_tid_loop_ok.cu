// SNC001 twin: the loop runs a block-uniform number of iterations; the thread-dependent part
// moves into a guard inside the body.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  unsigned acc = 0;
  s[tid] = in[g] + tid;
  #pragma unroll 1
  for (unsigned i = 0; i < 2; ++i) {
    __syncthreads();
    if (i <= tid / 32) acc += s[(tid + i) & 63];
  }
  out[g] = acc;
}

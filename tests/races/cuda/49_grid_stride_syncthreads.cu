// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// SNC001 defect: a grid-stride loop with __syncthreads() in its body. Its trip count depends on
// threadIdx.x (unless n is a multiple of the grid's thread count), so threads whose last
// element is behind them leave the loop and store their sum while the others wait at the
// barrier.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned acc = 0;
  #pragma unroll 1
  for (unsigned i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x) {
    s[tid] = in[i];
    __syncthreads();  // expect: SNC001
    acc += s[(tid + 1) % blockDim.x];
    __syncthreads();  // expect: SNC001
  }
  out[blockIdx.x * blockDim.x + tid] = acc;
}

// SNC001 defect: __syncthreads() inside a loop whose trip count depends on threadIdx.x
// (warp 0 runs 1 iteration, warp 1 runs 2), so the threads execute different numbers of barriers.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  unsigned acc = 0;
  s[tid] = in[g] + tid;
  #pragma unroll 1
  for (unsigned i = 0; i <= tid / 32; ++i) {
    __syncthreads();  // expect: SNC001
    acc += s[(tid + i) & 63];
  }
  out[g] = acc;
}

// RAC001 twin: barriers inside the loop separate the neighbour read from the overwrite and
// each iteration from the next.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  s[tid] = tid;
  __syncthreads();
  for (unsigned i = 0; i < 4; ++i) {
    unsigned v = s[(tid + 1) & 63];
    __syncthreads();
    s[tid] = v + in[g] + i;
    __syncthreads();
  }
  __syncthreads();
  out[g] = s[tid];
}

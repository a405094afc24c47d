// RAC001 twin: the neighbour's slot is read only after a __syncthreads().
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  s[tid] = in[g] + tid;
  __syncthreads();
  out[g] = tid < 63 ? s[tid + 1] : 0u;
}

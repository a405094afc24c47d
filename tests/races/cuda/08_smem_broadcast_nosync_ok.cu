// RAC001 twin: the broadcast value is read after a __syncthreads().
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) s = in[blockIdx.x] + 1;
  __syncthreads();
  out[g] = s + threadIdx.x;
}

// RAC001 twin: only thread 0 stores s[0]; the barrier then publishes it to the block.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[1];
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) s[0] = in[g] + threadIdx.x;
  __syncthreads();
  out[g] = s[0];
}

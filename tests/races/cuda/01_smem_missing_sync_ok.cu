// RAC001 twin: a __syncthreads() separates the store of s[tid] from the read of s[63 - tid].
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  s[tid] = in[g] + tid;
  __syncthreads();
  out[g] = s[63 - tid];
}

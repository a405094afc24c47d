// RAC001 twin: __syncwarp() orders the store of s[i] before the partner lane's read.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  s[tid] = in[g] + tid;
  __syncwarp();
  unsigned v = s[tid ^ 1];
  out[g] = v;
}

// SNC001 twin: the barrier is hoisted out of the thread-dependent branch; every thread reaches it.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[16];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  if (tid < 16) s[tid] = in[g] + tid;
  __syncthreads();
  if (tid < 16) {
    out[g] = s[15 - tid];
  } else {
    out[g] = in[g] * 3 + tid;
  }
}

// SNC001 twin: every thread executes __syncthreads_count(); only the odd threads keep the result.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  unsigned c = __syncthreads_count((tid & 1) && in[g] == 0);
  if (!(tid & 1)) c = 0;
  out[g] = c + tid;
}

// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// SNC002 defect: __match_any_sync(0xffffffff, ...) inside a branch only the odd lanes take; the
// even lanes go on to the block barrier.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  unsigned m = 0;
  if (tid & 1) m = __match_any_sync(0xffffffffu, in[g]);  // expect: SNC002
  s[tid] = m;
  __syncthreads();
  out[g] = s[tid ^ 1];
}

// SNC001 defect: __syncthreads_count() (bar.red.popc) executed only by the odd threads; the
// even threads of the same warps skip it.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  unsigned c = 0;
  if (tid & 1) {
    c = __syncthreads_count(in[g] == 0);  // expect: SNC001
  }
  out[g] = c + tid;
}

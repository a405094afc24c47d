// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// SNC002 defect: __all_sync(0xffffffff, ...) run only by lanes 8..31; lanes 0..7, named in the
// mask, skip it and meet the others at the full-warp shuffle that follows.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned lane = threadIdx.x % 32;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a = 0;
  if (lane >= 8) a = __all_sync(0xffffffffu, in[g] != 0);  // expect: SNC002
  out[g] = __shfl_sync(0xffffffffu, a, 31);
}

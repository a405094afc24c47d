// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// SNC002 defect: __ballot_sync(0xffffffff, ...) inside if (lane < 16); lanes 16..31, named in
// the mask, skip it and wait at the __syncwarp() instead of exiting.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned lane = threadIdx.x & 31;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned b = 0;
  if (lane < 16) b = __ballot_sync(0xffffffffu, in[g] < 7);  // expect: SNC002
  __syncwarp();
  out[g] = b + lane;
}

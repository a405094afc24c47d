// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// SNC002 twin: the mask names the 16 lanes that execute the ballot.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned lane = threadIdx.x & 31;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned b = 0;
  if (lane < 16) b = __ballot_sync(0x0000ffffu, in[g] < 7);
  __syncwarp();
  out[g] = b + lane;
}

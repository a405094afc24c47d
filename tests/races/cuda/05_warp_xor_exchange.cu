// RAC001 defect: warp-synchronous exchange through shared memory. Lane i stores s[i] and reads
// s[i ^ 1] with no __syncwarp(): lockstep execution is not guaranteed (independent scheduling).
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  s[tid] = in[g] + tid;    // expect: RAC001
  unsigned v = s[tid ^ 1];  // expect: RAC001
  out[g] = v;
}

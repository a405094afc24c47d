// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// RAC001 defect: all 128 threads of the block exchange words through shared memory across the
// named barrier `bar.sync 1, 64`, whose count is 64: the barrier releases each group of 64
// arriving threads (two warps) on its own, so warp 1's store of s[tid] need not come before
// warp 0's read of s[tid ^ 32].
// launch: 2 128
extern "C" __global__ void __launch_bounds__(128) k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[128];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * 128 + tid;
  s[tid] = in[g] + 1;  // expect: RAC001
  asm volatile("bar.sync 1, 64;" ::: "memory");
  out[g] = s[tid ^ 32];  // expect: RAC001
}

// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// RAC001 twin: the count is the 128 threads that take part.
// launch: 2 128
extern "C" __global__ void __launch_bounds__(128) k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[128];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * 128 + tid;
  s[tid] = in[g] + 1;
  asm volatile("bar.sync 1, 128;" ::: "memory");
  out[g] = s[tid ^ 32];
}

// RAC001 twin: the count is the 128 threads that take part.
extern "C" __global__ void __launch_bounds__(128) k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned s[128];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * 128 + tid;
  s[tid] = in[g] + 1;
  asm volatile("bar.sync 1, 128;" ::: "memory");
  out[g] = s[tid ^ 32];
}

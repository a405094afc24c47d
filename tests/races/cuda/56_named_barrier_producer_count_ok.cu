// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// RAC001 twin: the count is the 64 threads (producer and consumer warps) that take part.
extern "C" __global__ void __launch_bounds__(64) k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned tile[32];
  unsigned tid = threadIdx.x, lane = tid & 31;
  if (tid >= 32) {
    tile[lane] = in[blockIdx.x * 32 + lane] + 1;
    asm volatile("bar.arrive 1, 64;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[blockIdx.x * 32 + lane] = tile[lane];
  }
}

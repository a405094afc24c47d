// RAC001 twin: the upper half (warp 1) arrives on barrier 1 after filling the tile (bar.arrive 1, 64) and
// the lower half waits on it (bar.sync 1, 64): the 64 threads of barrier 1 order the stores before the loads.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned tile[32];
  unsigned tid = threadIdx.x, half = blockDim.x / 2, lane = tid % half;
  if (tid >= half) {
    tile[lane] = in[blockIdx.x * half + lane] + 1;
    asm volatile("bar.arrive 1, 64;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[blockIdx.x * half + lane] = tile[lane];
  }
}

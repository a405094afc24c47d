// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// RAC001 defect: warp 1 fills a tile and arrives on named barrier 1; warp 0 waits on it and
// reads the tile. 64 threads take part, but the count says 32: each warp alone completes a
// phase, so warp 0 does not wait for warp 1's stores.
extern "C" __global__ void __launch_bounds__(64) k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned tile[32];
  unsigned tid = threadIdx.x, lane = tid & 31;
  if (tid >= 32) {
    tile[lane] = in[blockIdx.x * 32 + lane] + 1;  // expect: RAC001
    asm volatile("bar.arrive 1, 32;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 32;" ::: "memory");
    out[blockIdx.x * 32 + lane] = tile[lane];  // expect: RAC001
  }
}

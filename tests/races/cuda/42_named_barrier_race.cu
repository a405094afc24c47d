// RAC001 defect: the upper half of the block (warp 1 at 64 threads) fills a tile that the lower
// half reads, but each half waits on its own named barrier (bar.sync 2, 32 and bar.sync 1, 32).
// A barrier with a thread count orders only the threads that take part in it, so nothing
// orders warp 1's stores before warp 0's loads.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned tile[32];
  unsigned tid = threadIdx.x, half = blockDim.x / 2, lane = tid % half;
  if (tid >= half) {
    tile[lane] = in[blockIdx.x * half + lane] + 1;  // expect: RAC001
    asm volatile("bar.sync 2, 32;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 32;" ::: "memory");
    out[blockIdx.x * half + lane] = tile[lane];  // expect: RAC001
  }
}

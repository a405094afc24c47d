// RAC001 defect: 8x8 tile transpose through shared memory without a barrier between filling
// tile[y][x] and reading the transposed element tile[x][y] (written by another thread).
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned tile[8][9];
  unsigned x = threadIdx.x % 8, y = threadIdx.x / 8;
  unsigned base = blockIdx.x * 64;
  tile[y][x] = in[base + y * 8 + x] + threadIdx.x;  // expect: RAC001
  out[base + y * 8 + x] = tile[x][y];               // expect: RAC001
}

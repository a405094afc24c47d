// RAC001 twin: the tile is complete (__syncthreads) before any thread reads it transposed.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ unsigned tile[8][9];
  unsigned x = threadIdx.x % 8, y = threadIdx.x / 8;
  unsigned base = blockIdx.x * 64;
  tile[y][x] = in[base + y * 8 + x] + threadIdx.x;
  __syncthreads();
  out[base + y * 8 + x] = tile[x][y];
}

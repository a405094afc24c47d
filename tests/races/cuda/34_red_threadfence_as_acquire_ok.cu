// SNC012 twin: the arrival is an atom.acquire.gpu whose result is used: the last block to arrive
// has synchronized with the other block's release and reads its partial value.
// launch: 2 64
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned* part = out + 4096;
  unsigned* count = out + 8192;
  if (threadIdx.x == 0) {
    part[blockIdx.x] = in[blockIdx.x] + blockIdx.x + 1;
    __threadfence();
    unsigned seen;
    asm volatile("atom.acquire.gpu.global.add.u32 %0, [%1], 1;" : "=r"(seen) : "l"(__cvta_generic_to_global(count)) : "memory");
    if (seen == gridDim.x - 1) out[blockIdx.x] = part[blockIdx.x ^ 1];
  }
}

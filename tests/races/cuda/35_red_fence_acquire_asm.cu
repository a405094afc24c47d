// SNC012 defect: red.release.gpu on the arrival counter followed by fence.acquire.gpu, used as
// if the pair acquired the other block's partial value. A fence.acquire needs a preceding
// strong read of the flag; red does not read.
// launch: 2 64
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned* part = out + 4096;
  unsigned* count = out + 8192;
  if (threadIdx.x == 0) {
    part[blockIdx.x] = in[blockIdx.x] + blockIdx.x + 1;
    asm volatile("red.release.gpu.global.add.u32 [%0], 1;" ::"l"(__cvta_generic_to_global(count)) : "memory");
    asm volatile("fence.acquire.gpu;" ::: "memory");  // expect: SNC012
    out[blockIdx.x] = part[blockIdx.x ^ 1];
  }
}

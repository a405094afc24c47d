// SNC012 defect: each block publishes a partial value, signals with red.global.add (what an
// atomicAdd with an unused result becomes in SASS; written as inline red because NVVM emits
// atom.global.add with a dead result) and then treats __threadfence() as if it acquired the
// other block's value. red is not a read, so red + fence is no acquire pattern.
// launch: 2 64
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned* part = out + 4096;
  unsigned* count = out + 8192;
  if (threadIdx.x == 0) {
    part[blockIdx.x] = in[blockIdx.x] + blockIdx.x + 1;
    __threadfence();
    asm volatile("red.global.add.u32 [%0], 1;" ::"l"(__cvta_generic_to_global(count)) : "memory");
    __threadfence();  // expect: SNC012
    out[blockIdx.x] = part[blockIdx.x ^ 1];
  }
}

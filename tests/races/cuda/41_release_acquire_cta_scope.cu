// SNC011 defect: block 0 publishes data with st.release.cta and block 1 spins on ld.acquire.cta.
// The two threads are in different CTAs, so CTA scope does not include the other side: the
// release and acquire do not synchronize, and block 1 may read the data before it is visible.
// launch: 2 64
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned* flag = out + 4096;
  unsigned* data = out + 8192;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *data = in[0] + 42;
    asm volatile("st.release.cta.global.u32 [%0], %1;" ::"l"(__cvta_generic_to_global(flag)), "r"(1u) : "memory");  // expect: SNC011
  }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    unsigned f = 0;
    #pragma unroll 1
    for (unsigned it = 0; it < (1u << 18); ++it) {
      asm volatile("ld.acquire.cta.global.u32 %0, [%1];" : "=r"(f) : "l"(__cvta_generic_to_global(flag)) : "memory");  // expect: SNC011
      if (f != 0) break;
      __nanosleep(64);
    }
    out[blockIdx.x] = f != 0 ? *data : 0u;
  }
}

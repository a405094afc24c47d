// SNC011 twin: the flag is published with st.release.gpu and read with ld.acquire.gpu, a scope
// that includes both CTAs, so block 1 reads the data only after synchronizing with block 0.
// launch: 2 64
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned* flag = out + 4096;
  unsigned* data = out + 8192;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *data = in[0] + 42;
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(__cvta_generic_to_global(flag)), "r"(1u) : "memory");
  }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    unsigned f = 0;
    #pragma unroll 1
    for (unsigned it = 0; it < (1u << 18); ++it) {
      asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(f) : "l"(__cvta_generic_to_global(flag)) : "memory");
      if (f != 0) break;
      __nanosleep(64);
    }
    out[blockIdx.x] = f != 0 ? *data : 0u;
  }
}

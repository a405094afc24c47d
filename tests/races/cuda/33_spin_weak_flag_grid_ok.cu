// SNC010 twin: the spin loads the flag with ld.acquire.gpu.global.u32 (inline asm).
// launch: 2 64
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned* flag = out + 8192;
  if (blockIdx.x == 1 && threadIdx.x == 0)
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(__cvta_generic_to_global(flag)), "r"(in[0] + 1) : "memory");
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    unsigned it = 0;
    #pragma unroll 1
    for (; it < (1u << 18); ++it) {
      unsigned f;
      asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(f) : "l"(__cvta_generic_to_global(flag)) : "memory");
      if (f != 0) break;
      __nanosleep(64);
    }
    out[0] = it;
  }
}

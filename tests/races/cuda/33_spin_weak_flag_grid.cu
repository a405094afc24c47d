// SNC010 defect: block 0 spins on a plain (weak) load of a flag that block 1 sets with
// st.release.gpu. The spin is bounded so the kernel always terminates.
// launch: 2 64
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  unsigned* flag = out + 8192;
  if (blockIdx.x == 1 && threadIdx.x == 0)
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(__cvta_generic_to_global(flag)), "r"(in[0] + 1) : "memory");
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    unsigned it = 0;
    #pragma unroll 1
    for (; it < (1u << 18); ++it) {
      if (*flag != 0) break;  // expect: SNC010
      __nanosleep(64);
    }
    out[0] = it;
  }
}

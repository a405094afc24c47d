// nvcc-flags: -arch=sm_80
// An asm statement whose template and operand list are both split by an #if on a macro from
// another header (the shape of a cp.async zero-fill wrapper): the statement is neither branch
// alone, so it is opaque (ASM012), never both branches glued together.
// nvcc 13 compiles it with and without -DCUTLASS_STYLE_PREFETCH=1.
template <int SizeInBytes>
__device__ void zfill(unsigned smem, void const* global, bool pred) {
  int bytes = pred ? SizeInBytes : 0;
  asm volatile(  // expect: ASM012
#if CUTLASS_STYLE_PREFETCH
      "cp.async.ca.shared.global.L2::128B [%0], [%1], %2, %3;\n" ::"r"(smem),
#else
      "cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(smem),
#endif
      "l"(global), "n"(SizeInBytes), "r"(bytes));
}
__global__ void k(void const* g, bool p) {
  __shared__ alignas(16) char s[16];
  zfill<16>((unsigned)__cvta_generic_to_shared(s), g, p);
}

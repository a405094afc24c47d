// SNC014 twin: iteration `it` waits on phase parity `it & 1` (passed as an "r" operand), so every
// iteration waits for the phase that its own bulk copy completes.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ alignas(8) unsigned long long bar;
  __shared__ alignas(128) unsigned buf[64];
  unsigned tid = threadIdx.x;
  unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(buf));
  if (tid == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n\tfence.mbarrier_init.release.cluster;" ::"r"(b) : "memory");
  __syncthreads();
  unsigned acc = 0;
  #pragma unroll 1
  for (unsigned it = 0; it < 4; ++it) {
    if (tid == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 256;" ::"r"(b) : "memory");
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];" ::"r"(d), "l"(__cvta_generic_to_global(in + (blockIdx.x * 4 + it) * 64)), "r"(b) : "memory");
    }
    unsigned done = 0;
    #pragma unroll 1
    for (unsigned w = 0; !done && w < (1u << 16); ++w)
      asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(done) : "r"(b), "r"(it & 1) : "memory");
    acc += done ? buf[tid] + 1 : 0u;
    __syncthreads();
  }
  out[blockIdx.x * 64 + tid] = acc;
}

// SNC013 defect (sm_90a): thread 0 starts a cp.async.bulk load of buf that completes on an
// mbarrier (complete_tx), and every thread reads buf[tid] before it has waited on that mbarrier,
// so the read may see buf before the copy has written it. The wait comes only after the read.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ alignas(8) unsigned long long bar;
  __shared__ alignas(128) unsigned buf[64];
  unsigned tid = threadIdx.x;
  unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(buf));
  if (tid == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n\tfence.mbarrier_init.release.cluster;" ::"r"(b) : "memory");
  __syncthreads();
  if (tid == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 256;" ::"r"(b) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];" ::"r"(d), "l"(__cvta_generic_to_global(in + blockIdx.x * 64)), "r"(b) : "memory");
  }
  unsigned v = buf[tid];  // expect: SNC013
  unsigned done = 0;
  #pragma unroll 1
  for (unsigned it = 0; !done && it < (1u << 16); ++it)
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }" : "=r"(done) : "r"(b) : "memory");
  out[blockIdx.x * 64 + tid] = done ? v + 1 : 0u;
}

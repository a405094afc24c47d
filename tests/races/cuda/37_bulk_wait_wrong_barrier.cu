// SNC013 defect (sm_90a): the cp.async.bulk load of buf completes on mbarrier `full`, but the
// threads wait on mbarrier `other` (which thread 0 arrives on right after issuing the copy) and
// then read buf. That wait says nothing about the copy, so the read may see buf before it lands.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ alignas(8) unsigned long long full;
  __shared__ alignas(8) unsigned long long other;
  __shared__ alignas(128) unsigned buf[64];
  unsigned tid = threadIdx.x;
  unsigned bf = static_cast<unsigned>(__cvta_generic_to_shared(&full));
  unsigned bo = static_cast<unsigned>(__cvta_generic_to_shared(&other));
  unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(buf));
  if (tid == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n\tmbarrier.init.shared::cta.b64 [%1], 1;\n\tfence.mbarrier_init.release.cluster;" ::"r"(bf), "r"(bo) : "memory");
  __syncthreads();
  if (tid == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 256;" ::"r"(bf) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];" ::"r"(d), "l"(__cvta_generic_to_global(in + blockIdx.x * 64)), "r"(bf) : "memory");
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bo) : "memory");
  }
  unsigned done = 0;
  #pragma unroll 1
  for (unsigned it = 0; !done && it < (1u << 16); ++it)
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }" : "=r"(done) : "r"(bo) : "memory");
  out[blockIdx.x * 64 + tid] = done ? buf[tid] + 1 : 0u;  // expect: SNC013
}

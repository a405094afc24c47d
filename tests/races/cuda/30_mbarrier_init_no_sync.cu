// SNC005 defect (sm_90a): thread 0 initialises an mbarrier and every thread arrives on it right
// away: there is no fence.mbarrier_init / __syncthreads() between the init and the other
// threads' use, so a thread of warp 1 can arrive on an uninitialised barrier.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ alignas(8) unsigned long long bar;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(blockDim.x) : "memory");
  unsigned long long tok;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(tok) : "r"(b) : "memory");  // expect: SNC005
  unsigned done = 0;
  #pragma unroll 1
  for (unsigned it = 0; !done && it < (1u << 16); ++it)
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(done) : "r"(b), "l"(tok) : "memory");  // expect: SNC005
  out[g] = done + in[g];
}

// SNC004 defect (sm_90a): the threads fill buf with generic-proxy stores, then thread 0 issues a
// bulk (TMA) store from buf. No fence.proxy.async.shared::cta sits between the generic writes and
// the async-proxy read, so the bulk store may read stale shared memory.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ alignas(128) unsigned buf[64];
  unsigned tid = threadIdx.x;
  buf[tid] = in[blockIdx.x * 64 + tid] + tid;
  __syncthreads();
  if (tid == 0) {
    unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(buf));
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 256;" ::"l"(__cvta_generic_to_global(out + blockIdx.x * 64)), "r"(src) : "memory");  // expect: SNC004
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}

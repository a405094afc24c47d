// SNC004 twin: fence.proxy.async.shared::cta between the generic writes and the bulk store.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ alignas(128) unsigned buf[64];
  if (threadIdx.x == 0) {
    for (unsigned i = 0; i < 64; ++i) buf[i] = in[blockIdx.x * 64 + i] + i;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(buf));
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 256;" ::"l"(__cvta_generic_to_global(out + blockIdx.x * 64)), "r"(src) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}

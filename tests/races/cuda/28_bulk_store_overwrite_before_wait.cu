// SNC007 defect (sm_90a): thread 0 starts a bulk store from buf and commits it, but the block
// overwrites buf for the next tile before cp.async.bulk.wait_group.read 0 has finished reading it.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ alignas(128) unsigned buf[64];
  unsigned tid = threadIdx.x;
  unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(buf));
  buf[tid] = in[blockIdx.x * 64 + tid] + tid;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (tid == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 256;" ::"l"(__cvta_generic_to_global(out + blockIdx.x * 128)), "r"(src) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  }
  __syncthreads();
  buf[tid] = in[blockIdx.x * 64 + tid] * 2;  // expect: SNC007
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (tid == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 256;" ::"l"(__cvta_generic_to_global(out + blockIdx.x * 128 + 64)), "r"(src) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}

// SNC006 defect: inline-asm cp.async.ca.shared.global + commit_group, then a read of the
// destination before cp.async.wait_all.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ alignas(16) unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&s[tid]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(__cvta_generic_to_global(&in[g])) : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  unsigned v = s[tid];  // expect: SNC006
  asm volatile("cp.async.wait_all;" ::: "memory");
  out[g] = v + 1;
}

// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// SNC006 defect: each thread copies its word into s[tid] with cp.async, then reads its
// neighbour's word s[tid ^ 1], which the neighbour's copy (still in flight: no wait, no
// barrier) writes.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ alignas(16) unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&s[tid]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(__cvta_generic_to_global(&in[g])) : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  unsigned v = s[tid ^ 1];  // expect: SNC006
  asm volatile("cp.async.wait_all;" ::: "memory");
  out[g] = v + 1;
}

// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// SNC006 defect: a __syncthreads() between the cp.async and the read of another warp's word
// is not enough: the barrier does not wait for asynchronous copies, so warp 1's copy into
// s[tid] may still be in flight when warp 0 reads s[tid ^ 32].
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ alignas(16) unsigned s[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&s[tid]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(__cvta_generic_to_global(&in[g])) : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  __syncthreads();
  unsigned v = s[tid ^ 32];  // expect: SNC006
  asm volatile("cp.async.wait_all;" ::: "memory");
  out[g] = v + 1;
}

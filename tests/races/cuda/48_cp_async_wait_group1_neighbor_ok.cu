// ptxas -arch=sm_90a (CUDA 13.0) on the PTX of make_ptx.sh: accepted, no warnings.
// SNC006 twin: cp.async.wait_group 0 completes both groups before the barrier.
extern "C" __global__ void k(unsigned* out, const unsigned* in, unsigned n) {
  __shared__ alignas(16) unsigned a[64], b[64];
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  unsigned da = static_cast<unsigned>(__cvta_generic_to_shared(&a[tid]));
  unsigned db = static_cast<unsigned>(__cvta_generic_to_shared(&b[tid]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(da), "l"(__cvta_generic_to_global(&in[g])) : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(db), "l"(__cvta_generic_to_global(&in[g + 4096])) : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  __syncthreads();
  unsigned v = a[63 - tid] + b[63 - tid];
  out[g] = v;
}

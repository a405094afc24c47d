// nvcc-flags: -arch=sm_90
// Fixed twin of asm004_percent_eq_macro.cu: the predicate is a plain name inside the braces (block
//                                           scope keeps it unique).
// Bug class of the defect: asm kept in macros; %= needs operands (issue 22, facts §3).
// Checked with: nvcc -arch=sm_90 = compute_90 (ptxas -arch=sm_90); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_90)

#include <cstdint>

// One elected lane fences the async proxy after the block wrote shared memory for a TMA store.
#define ELECT_ONE_FENCE_PROXY() \
  asm volatile("{ .reg .pred P; elect.sync _|P, 0xffffffff; @P fence.proxy.async.shared::cta; }" ::: "memory")

__global__ void publish_tile(float* out, const float* in) {
  __shared__ float tile[256];
  tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  ELECT_ONE_FENCE_PROXY();
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}

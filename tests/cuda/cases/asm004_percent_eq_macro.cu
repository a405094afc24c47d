// nvcc-flags: -arch=sm_90
// Defect: a function-like macro's asm names its predicate P%= but has no operands; ptxas gets the
//         text %= and fails to parse.
// Bug class: asm kept in macros; %= needs operands (issue 22, facts §3).
// Checked with: nvcc -arch=sm_90 = compute_90 (ptxas -arch=sm_90); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_90: ptxas-error (sm_90) .cu line 12: Parsing error near '%': syntax error

#include <cstdint>

// One elected lane fences the async proxy after the block wrote shared memory for a TMA store.
#define ELECT_ONE_FENCE_PROXY() \
  asm volatile("{ .reg .pred P%=; elect.sync _|P%=, 0xffffffff; @P%= fence.proxy.async.shared::cta; }" ::: "memory")  // expect: ASM004 at "%="

__global__ void publish_tile(float* out, const float* in) {
  __shared__ float tile[256];
  tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  ELECT_ONE_FENCE_PROXY();
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}

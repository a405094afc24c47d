// nvcc-flags: -arch=sm_80
// Defect: a TMA tile prefetch (cp.async.bulk.prefetch.tensor, sm_90+) in a kernel built for sm_80
//         with no guard; ptxas fails on the compute_80 pass.
// Bug class: arch guards and -arch mismatches (llama.cpp#18363, SageAttention#291, cutlass#1874).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: ptxas-error (sm_80) .cu line 13: Feature 'cp.async.bulk.prefetch.tensor' requires .target sm_90 or higher

#include <cstdint>

// Pulls the next 2-D tile of a tensor map into L2 (CUTLASS SM90_TMA_LOAD_2D::PREFETCH).
__device__ __forceinline__ void tma_prefetch_2d(const void* tmap, int x, int y) {
  asm volatile(
      "cp.async.bulk.prefetch.tensor.2d.L2.global"  // expect: ASM013 at "cp.async.bulk.prefetch.tensor"
      " [%0, {%1, %2}];"
      ::"l"(tmap), "r"(x), "r"(y)
      : "memory");
}

// Scales the current tile while the next one is being fetched into L2.
__global__ void scale_with_prefetch(float* data, const void* tmap, float s) {
  if (threadIdx.x == 0) tma_prefetch_2d(tmap, (blockIdx.x + 1) * 64, blockIdx.y * 64);
  const int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
  data[i] *= s;
}

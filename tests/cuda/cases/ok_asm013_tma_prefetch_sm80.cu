// nvcc-flags: -arch=sm_80
// Fixed twin of asm013_tma_prefetch_sm80.cu: the prefetch (a hint) is issued only under
//                                            __CUDA_ARCH__ >= 900.
// Bug class of the defect: arch guards and -arch mismatches (llama.cpp#18363, SageAttention#291,
//                          cutlass#1874).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// Pulls the next 2-D tile of a tensor map into L2 (CUTLASS SM90_TMA_LOAD_2D::PREFETCH).
__device__ __forceinline__ void tma_prefetch_2d(const void* tmap, int x, int y) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile(
      "cp.async.bulk.prefetch.tensor.2d.L2.global"
      " [%0, {%1, %2}];"
      ::"l"(tmap), "r"(x), "r"(y)
      : "memory");
#endif
}

// Scales the current tile while the next one is being fetched into L2.
__global__ void scale_with_prefetch(float* data, const void* tmap, float s) {
  if (threadIdx.x == 0) tma_prefetch_2d(tmap, (blockIdx.x + 1) * 64, blockIdx.y * 64);
  const int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
  data[i] *= s;
}

// nvcc-flags: -arch=sm_80
// Defect: the memory-order modifier is misspelt .relaxd; ptxas: unknown modifier.
// Bug class: misspelt modifiers on rarely compiled paths (NVIDIA/cutlass#1494).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: ptxas-error (sm_80) .cu line 11: Unknown modifier '.relaxd'

#include <cstdint>

__device__ __forceinline__ uint32_t atomic_add_relaxed_gpu(uint32_t* p, uint32_t v) {
  uint32_t old;
  asm volatile("atom.relaxd.gpu.global.add.u32 %0, [%1], %2;"  // expect: ISA004 at ".relaxd"
               : "=r"(old)
               : "l"(p), "r"(v)
               : "memory");
  return old;
}

__global__ void histogram(uint32_t* bins, const uint32_t* keys, uint32_t* slots) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  slots[i] = atomic_add_relaxed_gpu(&bins[keys[i] & 255], 1);
}

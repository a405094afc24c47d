// nvcc-flags: -arch=sm_80
// Fixed twin of isa004_atom_relaxd.cu: the modifier is .relaxed.
// Bug class of the defect: misspelt modifiers on rarely compiled paths (NVIDIA/cutlass#1494).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

__device__ __forceinline__ uint32_t atomic_add_relaxed_gpu(uint32_t* p, uint32_t v) {
  uint32_t old;
  asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], %2;"
               : "=r"(old)
               : "l"(p), "r"(v)
               : "memory");
  return old;
}

__global__ void histogram(uint32_t* bins, const uint32_t* keys, uint32_t* slots) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  slots[i] = atomic_add_relaxed_gpu(&bins[keys[i] & 255], 1);
}

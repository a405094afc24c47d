// nvcc-flags: -arch=sm_80
// Fixed twin of asm009_atom_count_deleted.cu: the statement is volatile with a "memory" clobber.
// Bug class of the defect: missing volatile / "memory" on side-effecting asm (flashinfer#5125,
//                          vllm#2760).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

__device__ __forceinline__ uint32_t atomic_add_u32(uint32_t* p, uint32_t v) {
  uint32_t old;
  asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

// Scales a block of data and counts finished blocks.
__global__ void scale_and_count(float* data, uint32_t* done_blocks, float s) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] *= s;
  __syncthreads();
  if (threadIdx.x == 0) atomic_add_u32(done_blocks, 1);
}

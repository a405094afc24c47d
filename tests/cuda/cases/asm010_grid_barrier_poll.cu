// nvcc-flags: -arch=sm_80
// Defect: a software grid barrier polls the arrival count with a non-volatile ld.relaxed.gpu; nvcc
//         hoists the load above the loop. nvcc and ptxas accept it.
// Bug class: missing volatile on polling loads (flashinfer#5125, vllm#2760).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80); PTX: compute_80: hoisted out of the loop

#include <cstdint>

__device__ __forceinline__ uint32_t ld_relaxed_gpu(const uint32_t* p) {
  uint32_t v;
  asm("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p));  // expect: ASM010 at "ld.relaxed"
  return v;
}

// Two phases separated by a one-shot grid barrier (all blocks co-resident).
__global__ void two_phase(float* data, uint32_t* arrived) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] *= 2.f;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(arrived, 1u);
    while (ld_relaxed_gpu(arrived) < gridDim.x) {
    }
    __threadfence();
  }
  __syncthreads();
  data[i] += data[(i + blockDim.x) % (gridDim.x * blockDim.x)];
}

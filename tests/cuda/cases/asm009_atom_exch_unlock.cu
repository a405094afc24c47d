// nvcc-flags: -arch=sm_80
// Defect: a spin-lock release written as non-volatile atom.global.exch with an output and no
//         "memory" clobber; the old value is not needed, so nvcc deletes the release and the lock is
//         never freed. nvcc and ptxas accept it.
// Bug class: missing volatile / "memory" on side-effecting asm (flashinfer#5125, vllm#2760).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80); PTX: compute_80: deleted

#include <cstdint>

__device__ __forceinline__ uint32_t atomic_exch_u32(uint32_t* p, uint32_t v) {
  uint32_t old;
  asm("atom.global.exch.b32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v));  // expect: ASM009 at "atom"
  return old;
}

__device__ __forceinline__ void lock(uint32_t* l) {
  while (atomicCAS(l, 0u, 1u) != 0u) {
  }
  __threadfence();
}

__device__ __forceinline__ void unlock(uint32_t* l) {
  __threadfence();
  atomic_exch_u32(l, 0);
}

// One thread per block appends its block's partial sum under a global lock.
__global__ void locked_append(float* total, uint32_t* l, const float* partial) {
  if (threadIdx.x == 0) {
    lock(l);
    *total += partial[blockIdx.x];
    unlock(l);
  }
}

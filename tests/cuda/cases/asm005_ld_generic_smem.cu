// nvcc-flags: -arch=sm_80
// Defect: a 32-bit shared-window address is loaded through the generic ld.u32 (the .shared was
//         dropped when the wrapper was generalized); ptxas stops on the 32-bit address.
// Bug class: generic vs shared address width (NVIDIA/cccl#1635).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: ptxas-error (sm_80): 32-Bit compilation is no longer supported (after "Program uses 32-bit address on line '57' which is conflicting with .address_size" at .cu line 13)

#include <cstdint>

__device__ __forceinline__ uint32_t lds_u32(const uint32_t* smem_ptr) {
  uint32_t v;
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem_ptr));
  asm volatile("ld.u32 %0, [%1];"
               : "=r"(v)
               : "r"(addr));  // expect: ASM005 at "r"
  return v;
}

__global__ void transpose_words(uint32_t* out, const uint32_t* in) {
  __shared__ uint32_t tile[32][33];
  tile[threadIdx.y][threadIdx.x] = in[(blockIdx.x * 32 + threadIdx.y) * 32 + threadIdx.x];
  __syncthreads();
  out[(blockIdx.x * 32 + threadIdx.y) * 32 + threadIdx.x] = lds_u32(&tile[threadIdx.x][threadIdx.y]);
}

// nvcc-flags: -arch=sm_80
// Defect: the copy size, an "n" operand from a template parameter, is written with GCC's %c modifier
//         (%c2); nvcc rejects operand modifiers.
// Bug class: templates ported from GCC-style inline asm; "n" operands from template parameters
//            (NVIDIA/cccl#2225).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=-); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_80: nvcc-error line 15: Asm operand modifier not supported at "%c", try removing modifier or escaping with %

#include <cstdint>

// Async copy of 4, 8 or 16 bytes (CUTLASS SM80_CP_ASYNC_CACHEALWAYS<TS>).
template <int Bytes>
__device__ __forceinline__ void cp_async_ca(uint32_t smem, const void* gmem) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async copies 4, 8 or 16 bytes");
  asm volatile("cp.async.ca.shared.global [%0], [%1], %c2;\n"  // expect: ASM003 at "%c2"
               ::"r"(smem), "l"(gmem), "n"(Bytes));
}

__global__ void stage_words(uint32_t* out, const uint32_t* in) {
  __shared__ uint32_t tile[256];
  const uint32_t smem = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  cp_async_ca<4>(smem, in + blockIdx.x * 256 + threadIdx.x);
  asm volatile("cp.async.wait_all;\n" ::);
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}

// nvcc-flags: -arch=sm_80
// Defect: in a function template with an "n" shift, the template shifts the input %2 in place
//         (shl.b32 %2, %2, %3) and then adds it. nvcc and ptxas accept it.
// Bug class: writing an input operand (NVIDIA/cutlass#1225); "n" operands from template parameters.
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// base + (idx << Shift): element offset to byte offset.
template <int Shift>
__device__ __forceinline__ uint32_t scale_index(uint32_t base, uint32_t idx) {
  uint32_t r;
  asm("shl.b32 %2, %2, %3;\n\t"  // expect: ASM008 at "%2"
      "add.u32 %0, %1, %2;"
      : "=r"(r)
      : "r"(base), "r"(idx), "n"(Shift));
  return r;
}

__global__ void byte_offsets(uint32_t* out, const uint32_t* idx, uint32_t base) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[2 * i] = scale_index<2>(base, idx[i]);
  out[2 * i + 1] = scale_index<4>(base, idx[i]);
}

// nvcc-flags: -arch=sm_80
// Fixed twin of asm008_addr_increment.cu: the second load uses the address plus an offset ([%8+16])
//                                         and writes nothing it reads.
// Bug class of the defect: writing an input operand (NVIDIA/cutlass#1225; CCCL review rule
//                          NVIDIA/cccl#11554).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// Loads two consecutive 16-byte rows of a shared tile with one statement.
__device__ __forceinline__ void lds_two_rows(uint4 (&rows)[2], uint32_t addr) {
  asm volatile("{\n\t"
               "ld.shared.v4.u32 {%0, %1, %2, %3}, [%8];\n\t"
               "// next row\n\t"
               "ld.shared.v4.u32 {%4, %5, %6, %7}, [%8+16];\n\t"
               "}"
               : "=r"(rows[0].x), "=r"(rows[0].y), "=r"(rows[0].z), "=r"(rows[0].w),
                 "=r"(rows[1].x), "=r"(rows[1].y), "=r"(rows[1].z), "=r"(rows[1].w)
               : "r"(addr));
}

__global__ void copy_rows(uint4* out, const uint4* in) {
  __shared__ uint4 tile[256];
  tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  tile[128 + threadIdx.x] = in[blockIdx.x * 256 + 128 + threadIdx.x];
  __syncthreads();
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[2 * (threadIdx.x % 64)]));
  uint4 rows[2];
  lds_two_rows(rows, addr);
  out[blockIdx.x * 256 + 2 * threadIdx.x] = rows[0];
  out[blockIdx.x * 256 + 2 * threadIdx.x + 1] = rows[1];
}

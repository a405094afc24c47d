// nvcc-flags: -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80
// Defect: the pre-sm_80 fallback path (#else of a __CUDA_ARCH__ >= 800 guard) stores with the SASS
//         mnemonic sts instead of the PTX st.shared; only the compute_75 pass compiles it, and ptxas
//         fails there.
// Bug class: misspelt opcodes on rarely compiled paths (NVIDIA/cutlass#1494, #690).
// Checked with: nvcc -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 = compute_75 (ptxas -arch=sm_75), compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: compute_75: ptxas-error (sm_75) .cu line 21: Not a name of any known instruction: 'sts'; compute_80: ok

#include <cstdint>

__device__ __forceinline__ void copy_16B_to_smem(uint4* smem_dst, const uint4* gmem_src) {
  const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(smem_dst));
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n"
               "cp.async.wait_all;\n" ::"r"(dst), "l"(gmem_src) : "memory");
#else
  uint4 v;
  asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(gmem_src));
  asm volatile("sts.v4.u32 [%0], {%1, %2, %3, %4};"  // expect: ISA001 at "sts"
               ::"r"(dst), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
#endif
}

__global__ void stage(uint4* out, const uint4* in) {
  __shared__ uint4 tile[128];
  copy_16B_to_smem(&tile[threadIdx.x], in + blockIdx.x * 128 + threadIdx.x);
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = tile[127 - threadIdx.x];
}

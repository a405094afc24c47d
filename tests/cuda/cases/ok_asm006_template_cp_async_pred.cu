// nvcc-flags: -arch=sm_80
// Fixed twin of asm006_template_cp_async_pred.cu: the template is wrapped in { }.
// Bug class of the defect: duplicate .reg definitions when asm is inlined twice (CUTLASS
//                          SM80_CP_ASYNC_CACHEALWAYS_ZFILL wraps it in { }).
// Checked with: nvcc -arch=sm_80 = compute_80 (ptxas -arch=sm_80); each pass: nvcc -lineinfo -ptx -gencode arch=P,code=P
// Verdict: accepts (compute_80)

#include <cstdint>

// Predicated async copy: copies only when `valid`.
template <int Bytes>
__device__ __forceinline__ void cp_async_pred(uint32_t smem, const void* gmem, bool valid) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %0, 0;\n"
               "@p cp.async.ca.shared.global [%1], [%2], %3;\n}\n"
               ::"r"((int)valid), "r"(smem), "l"(gmem), "n"(Bytes));
}

__global__ void load_tile_guarded(uint4* out, const uint4* in, int n) {
  __shared__ uint4 tile[256];
  const int i = blockIdx.x * 128 + threadIdx.x;
  const uint32_t s0 = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  const uint32_t s1 = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[128 + threadIdx.x]));
  cp_async_pred<16>(s0, in + i, i < n);
  cp_async_pred<8>(s1, in + n + i, i < n);
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_all;\n" ::);
  __syncthreads();
  out[i] = tile[threadIdx.x];
  out[n + i] = tile[128 + threadIdx.x];
}

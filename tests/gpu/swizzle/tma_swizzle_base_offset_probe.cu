// Probe 2: A (64x64 f16, K-major, 128-byte rows) is loaded by a real TMA tensor copy with
// CU_TENSOR_MAP_SWIZZLE_128B into smem at base+OFF (OFF a multiple of 128, base 1024-aligned),
// then read by wgmma m64n8k16 (first 16 K) with start = base+OFF and base offset BO.
#include <cuda.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdint>

__device__ __forceinline__ uint64_t desc(uint32_t addr, uint32_t bo) {
  return (uint64_t)((addr & 0x3FFFF) >> 4) | ((uint64_t)1 << 16) | ((uint64_t)(1024 >> 4) << 32) |
         ((uint64_t)(bo & 7) << 49) | ((uint64_t)1 << 62);
}

__global__ void k(const __grid_constant__ CUtensorMap tmA, const half* B, float* D, int off, int bo) {
  __shared__ __align__(1024) unsigned char smem[16384];
  __shared__ __align__(8) uint64_t bar;
  uint32_t s_base = (uint32_t)__cvta_generic_to_shared(smem);
  uint32_t b_bar = (uint32_t)__cvta_generic_to_shared(&bar);
  int t = threadIdx.x;
  for (int i = t; i < 16384; i += blockDim.x) smem[i] = 0;
  uint32_t bstart = s_base + 12288;
  for (int idx = t; idx < 8 * 64; idx += blockDim.x) {
    int n = idx / 64, kk = idx % 64;
    uint32_t L = bstart + n * 128 + kk * 2;
    uint32_t P = L ^ (((L >> 7) & 7) << 4);
    *(half*)(smem + (P - s_base)) = B[n * 64 + kk];
  }
  if (t == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b_bar));
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  uint32_t start = s_base + off;
  if (t == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b_bar), "r"(8192));
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(start), "l"(&tmA), "r"(0), "r"(0), "r"(b_bar) : "memory");
  }
  asm volatile("{\n.reg .pred P1;\nW:\nmbarrier.try_wait.parity.shared::cta.b64 P1, [%0], 0;\n@!P1 bra W;\n}\n" :: "r"(b_bar));
  uint64_t da = desc(start, bo), db = desc(bstart, 0);
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, %4, %5, p, 1, 1, 0, 0;\n}\n"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "l"(da), "l"(db), "r"(0));
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  int w = t / 32, l = t % 32, row = w * 16 + l / 4, col = (l % 4) * 2;
  D[row * 8 + col] = d0; D[row * 8 + col + 1] = d1; D[(row + 8) * 8 + col] = d2; D[(row + 8) * 8 + col + 1] = d3;
}

int main() {
  static half hA[64 * 64], hB[8 * 64];
  static float fA[64 * 64], fB[8 * 64];
  for (int i = 0; i < 64 * 64; ++i) { fA[i] = (float)((i * 7 + 3) % 5 - 2); hA[i] = __float2half(fA[i]); }
  for (int i = 0; i < 8 * 64; ++i) { fB[i] = (float)((i * 3 + 1) % 7 - 3); hB[i] = __float2half(fB[i]); }
  half *dA, *dB; float* dD;
  cudaMalloc(&dA, sizeof hA); cudaMalloc(&dB, sizeof hB); cudaMalloc(&dD, 64 * 8 * 4);
  cudaMemcpy(dA, hA, sizeof hA, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, hB, sizeof hB, cudaMemcpyHostToDevice);
  CUtensorMap tm;
  cuuint64_t gdim[2] = {64, 64}, gstride[1] = {128};
  cuuint32_t box[2] = {64, 64}, es[2] = {1, 1};
  CUresult r = cuTensorMapEncodeTiled(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, dA, gdim, gstride, box, es,
                                      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) { printf("encode failed %d\n", (int)r); return 1; }
  const int offs[] = {0, 128, 256, 384, 640, 896};
  for (int off : offs)
    for (int bo = 0; bo < 8; ++bo) {
      cudaMemset(dD, 0xff, 64 * 8 * 4);
      k<<<1, 128>>>(tm, dB, dD, off, bo);
      cudaError_t e = cudaDeviceSynchronize();
      if (e != cudaSuccess) { printf("off=%d bo=%d ERROR %s\n", off, bo, cudaGetErrorName(e)); return 1; }
      float hD[64 * 8];
      cudaMemcpy(hD, dD, sizeof hD, cudaMemcpyDeviceToHost);
      int bad = 0;
      for (int m = 0; m < 64; ++m)
        for (int n = 0; n < 8; ++n) {
          float ref = 0;
          for (int kk = 0; kk < 16; ++kk) ref += fA[m * 64 + kk] * fB[n * 64 + kk];
          if (hD[m * 8 + n] != ref) ++bad;
        }
      printf("TMA off=%4d (bits7..9=%d) bo=%d -> %s (%d/512 wrong)\n", off, (off >> 7) & 7, bo, bad ? "WRONG" : "ok", bad);
    }
  return 0;
}

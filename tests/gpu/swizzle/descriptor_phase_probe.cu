// Probe: how wgmma interprets the matrix-descriptor base offset for 128B swizzle.
// A (64x16 f16, K-major) is written into smem at base+OFF (rows of 128 B), swizzled either
//   absolute: phys = L ^ (((L>>7)&7)<<4)           (what TMA does, absolute address bits)
//   relative: phys = L ^ ((((L-start)>>7)&7)<<4)   (pattern starting at the matrix start)
// B (8x16 f16, K-major) sits at a 1024-aligned region, absolute swizzle, base offset 0.
// The descriptor for A uses start = base+OFF and base offset BO. Prints mismatches vs CPU.
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdint>
#include <cstring>

__device__ __forceinline__ uint64_t desc(uint32_t addr, uint32_t sbo, uint32_t bo, uint32_t swz) {
  uint64_t d = 0;
  d |= (uint64_t)((addr & 0x3FFFF) >> 4);
  d |= (uint64_t)1 << 16;                       // LBO (unused for swizzled K-major)
  d |= (uint64_t)((sbo & 0x3FFFF) >> 4) << 32;  // SBO
  d |= (uint64_t)(bo & 7) << 49;
  d |= (uint64_t)(swz & 3) << 62;
  return d;
}

__global__ void k(const half* A, const half* B, float* D, int off, int bo, int relative, int kadv) {
  __shared__ __align__(1024) unsigned char smem[16384];
  unsigned char* abase = smem;          // A region: [0, 10240)
  unsigned char* bbase = smem + 12288;  // B region: 1024-aligned
  uint32_t s_base = (uint32_t)__cvta_generic_to_shared(smem);
  int t = threadIdx.x;
  for (int i = t; i < 16384; i += blockDim.x) smem[i] = 0;
  __syncthreads();
  // A: logical element (m, k), k in [0,64): byte L = start + m*128 + k*2; only k < 16+kadv*16 used
  uint32_t start = s_base + off;
  for (int idx = t; idx < 64 * 64; idx += blockDim.x) {
    int m = idx / 64, kk = idx % 64;
    uint32_t L = start + m * 128 + kk * 2;
    uint32_t phase = relative ? (((L - start) >> 7) & 7) : ((L >> 7) & 7);
    uint32_t P = L ^ (phase << 4);
    *(half*)(smem + (P - s_base)) = A[m * 64 + kk];
  }
  uint32_t bstart = s_base + 12288;
  for (int idx = t; idx < 8 * 64; idx += blockDim.x) {
    int n = idx / 64, kk = idx % 64;
    uint32_t L = bstart + n * 128 + kk * 2;
    uint32_t P = L ^ (((L >> 7) & 7) << 4);
    *(half*)(smem + (P - s_base)) = B[n * 64 + kk];
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  uint64_t da = desc(start + kadv * 32, 1024, bo, 1);
  uint64_t db = desc(bstart + kadv * 32, 1024, 0, 1);
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, %4, %5, p, 1, 1, 0, 0;\n}\n"
      : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
      : "l"(da), "l"(db), "r"(0));
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  int w = t / 32, l = t % 32;
  int row = w * 16 + l / 4, col = (l % 4) * 2;
  D[row * 8 + col] = d0;
  D[row * 8 + col + 1] = d1;
  D[(row + 8) * 8 + col] = d2;
  D[(row + 8) * 8 + col + 1] = d3;
}

int main() {
  half hA[64 * 64], hB[8 * 64];
  float fA[64 * 64], fB[8 * 64];
  for (int i = 0; i < 64 * 64; ++i) { fA[i] = (float)((i * 7 + 3) % 5 - 2); hA[i] = __float2half(fA[i]); }
  for (int i = 0; i < 8 * 64; ++i) { fB[i] = (float)((i * 3 + 1) % 7 - 3); hB[i] = __float2half(fB[i]); }
  half *dA, *dB; float* dD;
  cudaMalloc(&dA, sizeof hA); cudaMalloc(&dB, sizeof hB); cudaMalloc(&dD, 64 * 8 * 4);
  cudaMemcpy(dA, hA, sizeof hA, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, hB, sizeof hB, cudaMemcpyHostToDevice);
  const int offs[] = {0, 128, 256, 384, 640, 1024};
  for (int kadv = 0; kadv < 2; ++kadv)
  for (int relative = 0; relative < 2; ++relative)
    for (int off : offs)
      for (int bo = 0; bo < 8; ++bo) {
        cudaMemset(dD, 0xff, 64 * 8 * 4);
        k<<<1, 128>>>(dA, dB, dD, off, bo, relative, kadv);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) { printf("kadv=%d rel=%d off=%d bo=%d ERROR %s\n", kadv, relative, off, bo, cudaGetErrorName(e)); return 1; }
        float hD[64 * 8];
        cudaMemcpy(hD, dD, sizeof hD, cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int m = 0; m < 64; ++m)
          for (int n = 0; n < 8; ++n) {
            float ref = 0;
            for (int kk = 0; kk < 16; ++kk) ref += fA[m * 64 + kadv * 16 + kk] * fB[n * 64 + kadv * 16 + kk];
            if (hD[m * 8 + n] != ref) ++bad;
          }
        printf("kadv=%d %s off=%4d (bits7..9=%d) bo=%d -> %s (%d/512 wrong)\n", kadv, relative ? "relative" : "absolute",
               off, (off >> 7) & 7, bo, bad ? "WRONG" : "ok", bad);
      }
  return 0;
}

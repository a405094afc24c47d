// gemm.cu: register-blocked GEMM kernels at several block tiles and per-thread tiles.
//
// Part of the register-estimate validation set (corpus/registers-validation/README.md).
// One template, C = alpha * A * B + beta * C with row-major A (M x K) and B (K x N): a block
// computes a BM x BN tile of C, each thread a TM x TN sub-tile kept in registers, stepping
// through K in BK-wide slices staged in shared memory (A transposed there). With double
// buffering the next slice is loaded into registers while the current one is multiplied, then
// stored into the other shared buffer. Every instantiation below is its own entry kernel.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace {

template <typename T> __device__ __forceinline__ float widen(T v) { return static_cast<float>(v); }
template <> __device__ __forceinline__ float widen<__half>(__half v) { return __half2float(v); }
template <> __device__ __forceinline__ float widen<__nv_bfloat16>(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename Acc, typename In> __device__ __forceinline__ Acc toAcc(In v) { return static_cast<Acc>(widen(v)); }
template <> __device__ __forceinline__ double toAcc<double, double>(double v) { return v; }

}  // namespace

template <typename In, typename Acc, int BM, int BN, int BK, int TM, int TN, bool DoubleBuffer>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    gemm_regblock(int M, int N, int K, const In* __restrict__ A, const In* __restrict__ B, Acc* __restrict__ C,
                  Acc alpha, Acc beta) {
  constexpr int Threads = (BM / TM) * (BN / TN);
  constexpr int Stages = DoubleBuffer ? 2 : 1;
  constexpr int APerThread = (BM * BK + Threads - 1) / Threads;
  constexpr int BPerThread = (BK * BN + Threads - 1) / Threads;
  __shared__ Acc As[Stages][BK][BM + 4];
  __shared__ Acc Bs[Stages][BK][BN];

  const int tx = threadIdx.x % (BN / TN);
  const int ty = threadIdx.x / (BN / TN);
  const int row0 = blockIdx.y * BM;
  const int col0 = blockIdx.x * BN;
  const In* Ablock = A + static_cast<size_t>(row0) * K;
  const In* Bblock = B + col0;

  Acc acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = Acc(0);

  Acc stageA[DoubleBuffer ? APerThread : 1];
  Acc stageB[DoubleBuffer ? BPerThread : 1];

  auto fetch = [&](int k0, Acc* ra, Acc* rb) {
#pragma unroll
    for (int l = 0; l < APerThread; ++l) {
      int idx = threadIdx.x + l * Threads;
      int r = idx / BK, c = idx % BK;
      ra[l] = (idx < BM * BK && row0 + r < M && k0 + c < K) ? toAcc<Acc>(Ablock[static_cast<size_t>(r) * K + k0 + c])
                                                           : Acc(0);
    }
#pragma unroll
    for (int l = 0; l < BPerThread; ++l) {
      int idx = threadIdx.x + l * Threads;
      int r = idx / BN, c = idx % BN;
      rb[l] = (idx < BK * BN && k0 + r < K && col0 + c < N)
                  ? toAcc<Acc>(Bblock[static_cast<size_t>(k0 + r) * N + c])
                  : Acc(0);
    }
  };
  auto store = [&](int stage, const Acc* ra, const Acc* rb) {
#pragma unroll
    for (int l = 0; l < APerThread; ++l) {
      int idx = threadIdx.x + l * Threads;
      if (idx < BM * BK) As[stage][idx % BK][idx / BK] = ra[l];
    }
#pragma unroll
    for (int l = 0; l < BPerThread; ++l) {
      int idx = threadIdx.x + l * Threads;
      if (idx < BK * BN) Bs[stage][idx / BN][idx % BN] = rb[l];
    }
  };
  auto multiply = [&](int stage) {
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      Acc a[TM], b[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i) a[i] = As[stage][k][ty * TM + i];
#pragma unroll
      for (int j = 0; j < TN; ++j) b[j] = Bs[stage][k][tx * TN + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
    }
  };

  if constexpr (DoubleBuffer) {
    fetch(0, stageA, stageB);
    store(0, stageA, stageB);
    __syncthreads();
    int stage = 0;
    for (int k0 = BK; k0 < K + BK; k0 += BK) {
      bool more = k0 < K;
      if (more) fetch(k0, stageA, stageB);
      multiply(stage);
      if (more) store(stage ^ 1, stageA, stageB);
      __syncthreads();
      stage ^= 1;
    }
  } else {
    Acc ra[APerThread], rb[BPerThread];
    for (int k0 = 0; k0 < K; k0 += BK) {
      fetch(k0, ra, rb);
      store(0, ra, rb);
      __syncthreads();
      multiply(0);
      __syncthreads();
    }
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    int r = row0 + ty * TM + i;
    if (r >= M) continue;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      int c = col0 + tx * TN + j;
      if (c < N) {
        Acc* out = C + static_cast<size_t>(r) * N + c;
        *out = alpha * acc[i][j] + beta * *out;
      }
    }
  }
}

// A GEMM whose per-thread tile is read with vector loads from shared memory (float4) and whose
// accumulators live in a flat array: the layout of the well-known "sgemm v5" kernels.
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    sgemm_vectorized(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
                     float* __restrict__ C) {
  constexpr int Threads = (BM / TM) * (BN / TN);
  __shared__ __align__(16) float As[BK][BM];
  __shared__ __align__(16) float Bs[BK][BN];
  const int tx = threadIdx.x % (BN / TN);
  const int ty = threadIdx.x / (BN / TN);
  const float* Ab = A + static_cast<size_t>(blockIdx.y) * BM * K;
  const float* Bb = B + blockIdx.x * BN;
  float acc[TM * TN] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int idx = threadIdx.x * 4; idx < BM * BK; idx += Threads * 4) {
      int r = idx / BK, c = idx % BK;
      float4 v = *reinterpret_cast<const float4*>(Ab + static_cast<size_t>(r) * K + k0 + c);
      As[c + 0][r] = v.x;
      As[c + 1][r] = v.y;
      As[c + 2][r] = v.z;
      As[c + 3][r] = v.w;
    }
#pragma unroll
    for (int idx = threadIdx.x * 4; idx < BK * BN; idx += Threads * 4) {
      int r = idx / BN, c = idx % BN;
      *reinterpret_cast<float4*>(&Bs[r][c]) =
          *reinterpret_cast<const float4*>(Bb + static_cast<size_t>(k0 + r) * N + c);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[TM], b[TN];
#pragma unroll
      for (int i = 0; i < TM; i += 4) {
        float4 v = *reinterpret_cast<const float4*>(&As[k][ty * TM + i]);
        a[i] = v.x, a[i + 1] = v.y, a[i + 2] = v.z, a[i + 3] = v.w;
      }
#pragma unroll
      for (int j = 0; j < TN; j += 4) {
        float4 v = *reinterpret_cast<const float4*>(&Bs[k][tx * TN + j]);
        b[j] = v.x, b[j + 1] = v.y, b[j + 2] = v.z, b[j + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i * TN + j] = fmaf(a[i], b[j], acc[i * TN + j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; j += 4) {
      size_t offset = static_cast<size_t>(blockIdx.y * BM + ty * TM + i) * N + blockIdx.x * BN + tx * TN + j;
      *reinterpret_cast<float4*>(C + offset) =
          make_float4(acc[i * TN + j], acc[i * TN + j + 1], acc[i * TN + j + 2], acc[i * TN + j + 3]);
    }
}

// Half-precision GEMM accumulating in __half2 pairs (HFMA2), two columns per register.
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    hgemm_half2(int M, int N, int K, const __half* __restrict__ A, const __half2* __restrict__ B,
                __half2* __restrict__ C) {
  constexpr int Threads = (BM / TM) * (BN / TN);
  __shared__ __half As[BK][BM];
  __shared__ __half2 Bs[BK][BN / 2];
  const int tx = threadIdx.x % (BN / TN);
  const int ty = threadIdx.x / (BN / TN);
  __half2 acc[TM][TN / 2];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN / 2; ++j) acc[i][j] = __float2half2_rn(0.0f);
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int idx = threadIdx.x; idx < BM * BK; idx += Threads)
      As[idx % BK][idx / BK] = A[static_cast<size_t>(blockIdx.y * BM + idx / BK) * K + k0 + idx % BK];
    for (int idx = threadIdx.x; idx < BK * BN / 2; idx += Threads)
      Bs[idx / (BN / 2)][idx % (BN / 2)] =
          B[static_cast<size_t>(k0 + idx / (BN / 2)) * (N / 2) + blockIdx.x * (BN / 2) + idx % (BN / 2)];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      __half2 b[TN / 2];
#pragma unroll
      for (int j = 0; j < TN / 2; ++j) b[j] = Bs[k][tx * (TN / 2) + j];
#pragma unroll
      for (int i = 0; i < TM; ++i) {
        __half2 a = __half2half2(As[k][ty * TM + i]);
#pragma unroll
        for (int j = 0; j < TN / 2; ++j) acc[i][j] = __hfma2(a, b[j], acc[i][j]);
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN / 2; ++j)
      C[static_cast<size_t>(blockIdx.y * BM + ty * TM + i) * (N / 2) + blockIdx.x * (BN / 2) + tx * (TN / 2) + j] =
          acc[i][j];
}

#define GEMM(In, Acc, BM, BN, BK, TM, TN, DB)                                                               \
  template __global__ void gemm_regblock<In, Acc, BM, BN, BK, TM, TN, DB>(int, int, int, const In*, const In*, \
                                                                          Acc*, Acc, Acc);
#define GEMM_BOTH(In, Acc, BM, BN, BK, TM, TN) \
  GEMM(In, Acc, BM, BN, BK, TM, TN, false)     \
  GEMM(In, Acc, BM, BN, BK, TM, TN, true)

// Single precision: 2x2 up to 16x8 per-thread tiles.
GEMM_BOTH(float, float, 32, 32, 8, 2, 2)
GEMM_BOTH(float, float, 64, 64, 8, 4, 4)
GEMM_BOTH(float, float, 64, 64, 16, 4, 4)
GEMM_BOTH(float, float, 128, 64, 8, 8, 4)
GEMM_BOTH(float, float, 64, 128, 8, 4, 8)
GEMM_BOTH(float, float, 128, 128, 8, 8, 8)
GEMM_BOTH(float, float, 64, 64, 8, 8, 8)
GEMM_BOTH(float, float, 128, 128, 8, 16, 8)
// Half and bfloat16 inputs, float accumulators.
GEMM_BOTH(__half, float, 64, 64, 16, 4, 4)
GEMM_BOTH(__half, float, 128, 64, 16, 8, 4)
GEMM_BOTH(__half, float, 128, 128, 8, 8, 8)
GEMM_BOTH(__nv_bfloat16, float, 64, 64, 16, 4, 4)
GEMM_BOTH(__nv_bfloat16, float, 64, 64, 8, 8, 4)
// Double precision: each accumulator takes a register pair.
GEMM_BOTH(double, double, 32, 32, 8, 4, 4)
GEMM_BOTH(double, double, 64, 32, 8, 8, 4)
GEMM_BOTH(double, double, 64, 64, 8, 4, 8)

#define SGEMM_VEC(BM, BN, BK, TM, TN) \
  template __global__ void sgemm_vectorized<BM, BN, BK, TM, TN>(int, int, int, const float*, const float*, float*);
SGEMM_VEC(64, 64, 8, 4, 4)
SGEMM_VEC(128, 128, 8, 8, 8)
SGEMM_VEC(128, 64, 16, 8, 4)
SGEMM_VEC(128, 128, 8, 16, 8)
SGEMM_VEC(64, 128, 8, 8, 8)

#define HGEMM2(BM, BN, BK, TM, TN) \
  template __global__ void hgemm_half2<BM, BN, BK, TM, TN>(int, int, int, const __half*, const __half2*, __half2*);
HGEMM2(64, 64, 16, 4, 4)
HGEMM2(128, 128, 8, 16, 8)
HGEMM2(128, 64, 16, 8, 8)

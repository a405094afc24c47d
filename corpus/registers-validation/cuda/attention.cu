// attention.cu: flash-attention-like kernels with an online softmax, at several head dimensions.
//
// Part of the register-estimate validation set (corpus/registers-validation/README.md).
// A block owns BlockM query rows; each row is split across RowThreads threads, each holding
// HeadDim / RowThreads elements of the query and of the output accumulator in registers. Keys
// and values stream through shared memory in BlockN-row tiles; the running maximum and sum of
// the softmax are rescaled as each tile arrives (the online softmax), and a causal variant
// masks keys after the query.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math_constants.h>

namespace {

template <typename T> __device__ __forceinline__ float load(const T* p) { return static_cast<float>(*p); }
template <> __device__ __forceinline__ float load<__half>(const __half* p) { return __half2float(*p); }
template <> __device__ __forceinline__ float load<__nv_bfloat16>(const __nv_bfloat16* p) {
  return __bfloat162float(*p);
}
template <typename T> __device__ __forceinline__ T narrow(float v) { return static_cast<T>(v); }
template <> __device__ __forceinline__ __half narrow<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 narrow<__nv_bfloat16>(float v) { return __float2bfloat16(v); }

}  // namespace

template <typename T, int HeadDim, int BlockM, int BlockN, int RowThreads, bool Causal>
__global__ void __launch_bounds__(BlockM * RowThreads)
    attention_forward(const T* __restrict__ Q, const T* __restrict__ K, const T* __restrict__ V, T* __restrict__ O,
                      float* __restrict__ logsumexp, int seqLen, float scale) {
  constexpr int Per = HeadDim / RowThreads;
  constexpr int Threads = BlockM * RowThreads;
  __shared__ float Ks[BlockN][HeadDim + 1];
  __shared__ float Vs[BlockN][HeadDim];

  const int head = blockIdx.y;
  const int row = blockIdx.x * BlockM + threadIdx.x / RowThreads;
  const int part = threadIdx.x % RowThreads;
  const size_t base = static_cast<size_t>(head) * seqLen * HeadDim;
  const bool valid = row < seqLen;

  float q[Per], acc[Per];
#pragma unroll
  for (int d = 0; d < Per; ++d) {
    q[d] = valid ? load(Q + base + static_cast<size_t>(row) * HeadDim + part * Per + d) * scale : 0.0f;
    acc[d] = 0.0f;
  }
  float runningMax = -CUDART_INF_F;
  float runningSum = 0.0f;

  const int lastKey = Causal ? min(seqLen, (blockIdx.x + 1) * BlockM) : seqLen;
  for (int n0 = 0; n0 < lastKey; n0 += BlockN) {
    for (int idx = threadIdx.x; idx < BlockN * HeadDim; idx += Threads) {
      int r = idx / HeadDim, c = idx % HeadDim;
      bool in = n0 + r < seqLen;
      Ks[r][c] = in ? load(K + base + static_cast<size_t>(n0 + r) * HeadDim + c) : 0.0f;
      Vs[r][c] = in ? load(V + base + static_cast<size_t>(n0 + r) * HeadDim + c) : 0.0f;
    }
    __syncthreads();
    float scores[BlockN];
    float tileMax = -CUDART_INF_F;
#pragma unroll
    for (int j = 0; j < BlockN; ++j) {
      float s = 0.0f;
#pragma unroll
      for (int d = 0; d < Per; ++d) s = fmaf(q[d], Ks[j][part * Per + d], s);
#pragma unroll
      for (int offset = RowThreads / 2; offset > 0; offset /= 2) s += __shfl_xor_sync(0xffffffffu, s, offset);
      bool masked = n0 + j >= seqLen || (Causal && n0 + j > row);
      scores[j] = masked ? -CUDART_INF_F : s;
      tileMax = fmaxf(tileMax, scores[j]);
    }
    float newMax = fmaxf(runningMax, tileMax);
    float correction = __expf(runningMax - newMax);
    runningSum *= correction;
#pragma unroll
    for (int d = 0; d < Per; ++d) acc[d] *= correction;
#pragma unroll
    for (int j = 0; j < BlockN; ++j) {
      float p = __expf(scores[j] - newMax);
      runningSum += p;
#pragma unroll
      for (int d = 0; d < Per; ++d) acc[d] = fmaf(p, Vs[j][part * Per + d], acc[d]);
    }
    runningMax = newMax;
    __syncthreads();
  }
  if (!valid) return;
  float inv = 1.0f / runningSum;
#pragma unroll
  for (int d = 0; d < Per; ++d) O[base + static_cast<size_t>(row) * HeadDim + part * Per + d] = narrow<T>(acc[d] * inv);
  if (part == 0) logsumexp[static_cast<size_t>(head) * seqLen + row] = runningMax + __logf(runningSum);
}

// The backward pass's dot(dO, O) preprocessing and a decode kernel: one query per block, the
// key range split over warps, partial softmax states merged through shared memory.
template <typename T, int HeadDim>
__global__ void __launch_bounds__(128)
    attention_decode(const T* __restrict__ q, const T* __restrict__ K, const T* __restrict__ V, T* __restrict__ out,
                     int seqLen, float scale) {
  constexpr int Warps = 4;
  constexpr int Per = HeadDim / 32;
  __shared__ float partMax[Warps], partSum[Warps];
  __shared__ float partAcc[Warps][HeadDim];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const size_t base = static_cast<size_t>(blockIdx.x) * seqLen * HeadDim;
  float qv[Per], acc[Per];
#pragma unroll
  for (int d = 0; d < Per; ++d) {
    qv[d] = load(q + static_cast<size_t>(blockIdx.x) * HeadDim + lane * Per + d) * scale;
    acc[d] = 0.0f;
  }
  float m = -CUDART_INF_F, l = 0.0f;
  for (int n = warp; n < seqLen; n += Warps) {
    float s = 0.0f;
#pragma unroll
    for (int d = 0; d < Per; ++d) s = fmaf(qv[d], load(K + base + static_cast<size_t>(n) * HeadDim + lane * Per + d), s);
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) s += __shfl_xor_sync(0xffffffffu, s, offset);
    float newMax = fmaxf(m, s);
    float c = __expf(m - newMax), p = __expf(s - newMax);
    l = l * c + p;
#pragma unroll
    for (int d = 0; d < Per; ++d)
      acc[d] = fmaf(acc[d], c, p * load(V + base + static_cast<size_t>(n) * HeadDim + lane * Per + d));
    m = newMax;
  }
  if (lane == 0) partMax[warp] = m, partSum[warp] = l;
#pragma unroll
  for (int d = 0; d < Per; ++d) partAcc[warp][lane * Per + d] = acc[d];
  __syncthreads();
  if (warp != 0) return;
  float globalMax = partMax[0];
#pragma unroll
  for (int w = 1; w < Warps; ++w) globalMax = fmaxf(globalMax, partMax[w]);
  float total = 0.0f;
  float result[Per] = {};
#pragma unroll
  for (int w = 0; w < Warps; ++w) {
    float c = __expf(partMax[w] - globalMax);
    total += partSum[w] * c;
#pragma unroll
    for (int d = 0; d < Per; ++d) result[d] += partAcc[w][lane * Per + d] * c;
  }
#pragma unroll
  for (int d = 0; d < Per; ++d) out[static_cast<size_t>(blockIdx.x) * HeadDim + lane * Per + d] = narrow<T>(result[d] / total);
}

#define ATTN(T, D, BM, BN, RT, C)                                                                               \
  template __global__ void attention_forward<T, D, BM, BN, RT, C>(const T*, const T*, const T*, T*, float*, int, \
                                                                  float);
ATTN(float, 32, 64, 16, 2, false)
ATTN(float, 32, 64, 16, 2, true)
ATTN(float, 64, 64, 16, 4, false)
ATTN(float, 64, 64, 16, 4, true)
ATTN(float, 64, 32, 8, 2, false)
ATTN(float, 128, 32, 8, 4, false)
ATTN(float, 128, 32, 8, 4, true)
ATTN(float, 128, 16, 8, 4, false)
ATTN(__half, 64, 64, 16, 4, false)
ATTN(__half, 64, 64, 16, 4, true)
ATTN(__half, 128, 32, 8, 4, true)
ATTN(__half, 96, 32, 8, 2, false)
ATTN(__nv_bfloat16, 64, 32, 8, 2, true)
ATTN(__nv_bfloat16, 128, 32, 16, 8, false)

#define DECODE(T, D) template __global__ void attention_decode<T, D>(const T*, const T*, const T*, T*, int, float);
DECODE(float, 64)
DECODE(float, 128)
DECODE(float, 256)
DECODE(__half, 128)
DECODE(__nv_bfloat16, 256)

// reduction.cu: block and grid reductions over several types and items per thread.
//
// Part of the register-estimate validation set (corpus/registers-validation/README.md).
// Each thread accumulates Items values (vector loads where the type allows), the warp combines
// them with shuffles and the block through shared memory; variants compute sums, extrema with
// their index, Welford mean and variance, dot products, norms and a segmented sum.
#include <cuda_fp16.h>
#include <cstdint>

namespace {

template <typename T, typename Op> __device__ __forceinline__ T warpReduce(T v, Op op) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

template <typename T, int Threads, typename Op> __device__ __forceinline__ T blockReduce(T v, Op op, T identity) {
  __shared__ T partial[Threads / 32];
  v = warpReduce(v, op);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < Threads / 32 ? partial[threadIdx.x] : identity;
  if (threadIdx.x < 32) v = warpReduce(v, op);
  return v;
}

struct Plus {
  template <typename T> __device__ T operator()(T a, T b) const { return a + b; }
};
struct Max {
  template <typename T> __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};

}  // namespace

template <typename T, int Threads, int Items>
__global__ void __launch_bounds__(Threads) reduce_sum(const T* __restrict__ in, T* __restrict__ out, size_t n) {
  T acc[Items] = {};
  size_t stride = static_cast<size_t>(gridDim.x) * Threads * Items;
  for (size_t base = static_cast<size_t>(blockIdx.x) * Threads * Items + threadIdx.x; base < n; base += stride) {
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      size_t idx = base + static_cast<size_t>(i) * Threads;
      if (idx < n) acc[i] += in[idx];
    }
  }
  T v = T(0);
#pragma unroll
  for (int i = 0; i < Items; ++i) v += acc[i];
  v = blockReduce<T, Threads>(v, Plus{}, T(0));
  if (threadIdx.x == 0) atomicAdd(out, v);
}

template <int Threads, int Vectors>
__global__ void __launch_bounds__(Threads) reduce_sum_float4(const float4* __restrict__ in, float* __restrict__ out,
                                                             int n4) {
  float4 acc[Vectors];
#pragma unroll
  for (int i = 0; i < Vectors; ++i) acc[i] = make_float4(0, 0, 0, 0);
  for (int base = blockIdx.x * Threads * Vectors + threadIdx.x; base < n4; base += gridDim.x * Threads * Vectors) {
    float4 v[Vectors];
#pragma unroll
    for (int i = 0; i < Vectors; ++i) v[i] = base + i * Threads < n4 ? in[base + i * Threads] : make_float4(0, 0, 0, 0);
#pragma unroll
    for (int i = 0; i < Vectors; ++i) acc[i].x += v[i].x, acc[i].y += v[i].y, acc[i].z += v[i].z, acc[i].w += v[i].w;
  }
  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < Vectors; ++i) s += (acc[i].x + acc[i].y) + (acc[i].z + acc[i].w);
  s = blockReduce<float, Threads>(s, Plus{}, 0.0f);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

template <typename T, int Threads, int Items>
__global__ void __launch_bounds__(Threads) reduce_argmax(const T* __restrict__ in, T* __restrict__ bestValue,
                                                         int* __restrict__ bestIndex, int n) {
  T best = in[0];
  int index = 0;
  for (int base = blockIdx.x * Threads * Items + threadIdx.x; base < n; base += gridDim.x * Threads * Items) {
    T v[Items];
#pragma unroll
    for (int i = 0; i < Items; ++i) v[i] = base + i * Threads < n ? in[base + i * Threads] : in[0];
#pragma unroll
    for (int i = 0; i < Items; ++i)
      if (v[i] > best) best = v[i], index = base + i * Threads;
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    T other = __shfl_xor_sync(0xffffffffu, best, offset);
    int otherIndex = __shfl_xor_sync(0xffffffffu, index, offset);
    if (other > best || (other == best && otherIndex < index)) best = other, index = otherIndex;
  }
  __shared__ T values[Threads / 32];
  __shared__ int indices[Threads / 32];
  if (threadIdx.x % 32 == 0) values[threadIdx.x / 32] = best, indices[threadIdx.x / 32] = index;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < Threads / 32; ++w)
      if (values[w] > best) best = values[w], index = indices[w];
    bestValue[blockIdx.x] = best;
    bestIndex[blockIdx.x] = index;
  }
}

// Welford's online mean and variance per row (a layer-norm statistics pass), one block per row.
template <int Threads, int Items>
__global__ void __launch_bounds__(Threads) row_mean_variance(const float* __restrict__ x, float2* __restrict__ stats,
                                                             int cols) {
  const float* row = x + static_cast<size_t>(blockIdx.x) * cols;
  float mean = 0.0f, m2 = 0.0f, count = 0.0f;
  for (int c = threadIdx.x; c < cols; c += Threads * Items) {
    float v[Items];
#pragma unroll
    for (int i = 0; i < Items; ++i) v[i] = c + i * Threads < cols ? row[c + i * Threads] : 0.0f;
#pragma unroll
    for (int i = 0; i < Items; ++i)
      if (c + i * Threads < cols) {
        count += 1.0f;
        float delta = v[i] - mean;
        mean += delta / count;
        m2 += delta * (v[i] - mean);
      }
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    float oc = __shfl_xor_sync(0xffffffffu, count, offset);
    float om = __shfl_xor_sync(0xffffffffu, mean, offset);
    float o2 = __shfl_xor_sync(0xffffffffu, m2, offset);
    float total = count + oc;
    float delta = om - mean;
    float w = total > 0.0f ? oc / total : 0.0f;
    mean += delta * w;
    m2 += o2 + delta * delta * count * w;
    count = total;
  }
  __shared__ float3 partial[Threads / 32];
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = make_float3(count, mean, m2);
  __syncthreads();
  if (threadIdx.x == 0) {
    float3 a = partial[0];
    for (int w = 1; w < Threads / 32; ++w) {
      float3 b = partial[w];
      float total = a.x + b.x;
      float delta = b.y - a.y;
      float wgt = total > 0.0f ? b.x / total : 0.0f;
      a = make_float3(total, a.y + delta * wgt, a.z + b.z + delta * delta * a.x * wgt);
    }
    stats[blockIdx.x] = make_float2(a.y, a.z / fmaxf(a.x, 1.0f));
  }
}

// Dot product of half vectors accumulated in float, and an L2 norm in double.
template <int Threads>
__global__ void __launch_bounds__(Threads) dot_half2(const __half2* __restrict__ a, const __half2* __restrict__ b,
                                                     float* __restrict__ out, int n2) {
  float acc = 0.0f;
  for (int i = blockIdx.x * Threads + threadIdx.x; i < n2; i += gridDim.x * Threads) {
    float2 fa = __half22float2(a[i]), fb = __half22float2(b[i]);
    acc = fmaf(fa.x, fb.x, fmaf(fa.y, fb.y, acc));
  }
  acc = blockReduce<float, Threads>(acc, Plus{}, 0.0f);
  if (threadIdx.x == 0) atomicAdd(out, acc);
}

template <int Threads, int Items>
__global__ void __launch_bounds__(Threads) norm_l2_double(const double* __restrict__ x, double* __restrict__ out,
                                                          int n) {
  double scale = 0.0, ssq = 1.0;
  for (int base = blockIdx.x * Threads * Items + threadIdx.x; base < n; base += gridDim.x * Threads * Items) {
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      int idx = base + i * Threads;
      double v = idx < n ? fabs(x[idx]) : 0.0;
      if (v > 0.0) {
        if (scale < v) {
          ssq = 1.0 + ssq * (scale / v) * (scale / v);
          scale = v;
        } else {
          ssq += (v / scale) * (v / scale);
        }
      }
    }
  }
  double v = scale * sqrt(ssq);
  v = blockReduce<double, Threads>(v * v, Plus{}, 0.0);
  if (threadIdx.x == 0) out[blockIdx.x] = sqrt(v);
}

// Segmented sum with one warp per segment and a max-reduction of 64-bit keys.
__global__ void __launch_bounds__(256) segmented_sum_warp(const float* __restrict__ values,
                                                          const int* __restrict__ offsets, float* __restrict__ out,
                                                          int segments) {
  int segment = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (segment >= segments) return;
  float s = 0.0f;
  for (int i = offsets[segment] + lane; i < offsets[segment + 1]; i += 32) s += values[i];
  s = warpReduce(s, Plus{});
  if (lane == 0) out[segment] = s;
}

template <int Threads, int Items>
__global__ void __launch_bounds__(Threads) reduce_max_u64(const std::uint64_t* __restrict__ in,
                                                          unsigned long long* __restrict__ out, int n) {
  std::uint64_t m = 0;
  for (int base = blockIdx.x * Threads * Items + threadIdx.x; base < n; base += gridDim.x * Threads * Items) {
#pragma unroll
    for (int i = 0; i < Items; ++i)
      if (base + i * Threads < n) m = max(m, in[base + i * Threads]);
  }
  m = blockReduce<std::uint64_t, Threads>(m, Max{}, std::uint64_t(0));
  if (threadIdx.x == 0) atomicMax(out, static_cast<unsigned long long>(m));
}

template __global__ void reduce_sum<float, 256, 1>(const float*, float*, size_t);
template __global__ void reduce_sum<float, 256, 8>(const float*, float*, size_t);
template __global__ void reduce_sum<float, 128, 16>(const float*, float*, size_t);
template __global__ void reduce_sum<double, 256, 4>(const double*, double*, size_t);
template __global__ void reduce_sum<double, 512, 16>(const double*, double*, size_t);
template __global__ void reduce_sum<int, 256, 8>(const int*, int*, size_t);
template __global__ void reduce_sum_float4<256, 1>(const float4*, float*, int);
template __global__ void reduce_sum_float4<256, 4>(const float4*, float*, int);
template __global__ void reduce_sum_float4<128, 8>(const float4*, float*, int);
template __global__ void reduce_argmax<float, 256, 4>(const float*, float*, int*, int);
template __global__ void reduce_argmax<double, 128, 8>(const double*, double*, int*, int);
template __global__ void reduce_argmax<int, 512, 2>(const int*, int*, int*, int);
template __global__ void row_mean_variance<128, 4>(const float*, float2*, int);
template __global__ void row_mean_variance<256, 8>(const float*, float2*, int);
template __global__ void dot_half2<256>(const __half2*, const __half2*, float*, int);
template __global__ void norm_l2_double<256, 1>(const double*, double*, int);
template __global__ void norm_l2_double<128, 4>(const double*, double*, int);
template __global__ void reduce_max_u64<256, 4>(const std::uint64_t*, unsigned long long*, int);
template __global__ void reduce_max_u64<128, 16>(const std::uint64_t*, unsigned long long*, int);

// bits.cu: radix-sort-style bit manipulation: digit extraction, ranking and histograms.
//
// Part of the register-estimate validation set (corpus/registers-validation/README.md).
// Keys are flipped into an unsigned order (floats and signed integers), digits extracted with
// shifts and bfe, ranked within warps by match/ballot and popc, counted in shared-memory or
// register histograms; plus a bit-reversal permutation, a Morton code encoder and a packed
// bitset population count.
#include <cuda_bf16.h>
#include <cstdint>

namespace {

__device__ __forceinline__ std::uint32_t flipFloat(std::uint32_t bits) {
  std::uint32_t mask = -static_cast<std::int32_t>(bits >> 31) | 0x80000000u;
  return bits ^ mask;
}
__device__ __forceinline__ std::uint64_t flipDouble(std::uint64_t bits) {
  std::uint64_t mask = -static_cast<std::int64_t>(bits >> 63) | 0x8000000000000000ull;
  return bits ^ mask;
}
template <typename K> __device__ __forceinline__ std::uint32_t digit(K key, int shift, int bits) {
  return static_cast<std::uint32_t>(key >> shift) & ((1u << bits) - 1);
}

}  // namespace

// Per-block digit histograms of Items keys per thread (the upsweep of a radix sort).
template <typename K, int Bits, int Threads, int Items>
__global__ void __launch_bounds__(Threads)
    radix_histogram(const K* __restrict__ keys, std::uint32_t* __restrict__ counts, int n, int shift) {
  constexpr int Buckets = 1 << Bits;
  __shared__ std::uint32_t hist[Buckets];
  for (int b = threadIdx.x; b < Buckets; b += Threads) hist[b] = 0;
  __syncthreads();
  int base = blockIdx.x * Threads * Items + threadIdx.x;
  K local[Items];
#pragma unroll
  for (int i = 0; i < Items; ++i) local[i] = base + i * Threads < n ? keys[base + i * Threads] : K(~K(0));
#pragma unroll
  for (int i = 0; i < Items; ++i)
    if (base + i * Threads < n) atomicAdd(&hist[digit(local[i], shift, Bits)], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < Buckets; b += Threads) counts[b * gridDim.x + blockIdx.x] = hist[b];
}

// Warp-level ranking of 32-bit keys by 4-bit digits with ballots (no shared histogram).
template <int Items>
__global__ void __launch_bounds__(256)
    radix_rank_ballot(const std::uint32_t* __restrict__ keys, std::uint32_t* __restrict__ ranks, int n, int shift) {
  const int lane = threadIdx.x % 32;
  const std::uint32_t lanesBelow = (1u << lane) - 1;
  int base = (blockIdx.x * blockDim.x / 32 + threadIdx.x / 32) * 32 * Items;
  std::uint32_t counters[16] = {};
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    int idx = base + i * 32 + lane;
    std::uint32_t key = idx < n ? keys[idx] : 0xffffffffu;
    std::uint32_t d = digit(key, shift, 4);
    std::uint32_t peers = 0xffffffffu;
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      std::uint32_t vote = __ballot_sync(0xffffffffu, (d >> b) & 1);
      peers &= ((d >> b) & 1) ? vote : ~vote;
    }
    std::uint32_t rank = __popc(peers & lanesBelow);
    std::uint32_t prior = 0;
#pragma unroll
    for (int b = 0; b < 16; ++b) prior = (d == static_cast<std::uint32_t>(b)) ? counters[b] : prior;
    if (idx < n) ranks[idx] = prior + rank;
#pragma unroll
    for (int b = 0; b < 16; ++b) counters[b] += __popc(__ballot_sync(0xffffffffu, d == static_cast<std::uint32_t>(b)));
  }
}

// Ranking with __match_any_sync (sm_70+): peers with the same 8-bit digit.
__global__ void __launch_bounds__(256)
    radix_rank_match(const std::uint32_t* __restrict__ keys, std::uint32_t* __restrict__ ranks,
                     std::uint32_t* __restrict__ warpCounts, int n, int shift) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  std::uint32_t key = idx < n ? keys[idx] : 0xffffffffu;
  std::uint32_t d = digit(key, shift, 8);
  std::uint32_t peers = __match_any_sync(0xffffffffu, d);
  int lane = threadIdx.x % 32;
  std::uint32_t rank = __popc(peers & ((1u << lane) - 1));
  if (idx < n) ranks[idx] = rank;
  if (rank == 0) atomicAdd(&warpCounts[(idx / 32) * 256 + d], __popc(peers));
}

// Scatter after ranking: keys of float or double flipped into unsigned order and back.
template <int Items>
__global__ void __launch_bounds__(128)
    radix_scatter_float(const float* __restrict__ in, float* __restrict__ out, const std::uint32_t* __restrict__ offsets,
                        int n, int shift) {
  __shared__ std::uint32_t binOffsets[256];
  for (int b = threadIdx.x; b < 256; b += 128) binOffsets[b] = offsets[b * gridDim.x + blockIdx.x];
  __syncthreads();
  int base = blockIdx.x * 128 * Items + threadIdx.x;
  std::uint32_t keys[Items];
#pragma unroll
  for (int i = 0; i < Items; ++i)
    keys[i] = base + i * 128 < n ? flipFloat(__float_as_uint(in[base + i * 128])) : 0xffffffffu;
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    if (base + i * 128 >= n) continue;
    std::uint32_t d = __byte_perm(keys[i] >> shift, 0, 0x4440);
    std::uint32_t position = atomicAdd(&binOffsets[d], 1u);
    std::uint32_t back = keys[i] ^ (((keys[i] >> 31) - 1) | 0x80000000u);
    out[position] = __uint_as_float(back);
  }
}

template <int Items>
__global__ void __launch_bounds__(128)
    radix_digits_double(const double* __restrict__ in, std::uint16_t* __restrict__ digits, int n) {
  int base = blockIdx.x * 128 * Items + threadIdx.x;
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    int idx = base + i * 128;
    if (idx >= n) break;
    std::uint64_t key = flipDouble(static_cast<std::uint64_t>(__double_as_longlong(in[idx])));
    std::uint16_t packed = 0;
#pragma unroll
    for (int pass = 0; pass < 4; ++pass) packed |= static_cast<std::uint16_t>(digit(key, 60 - 16 * pass, 4) << (4 * pass));
    digits[idx] = packed;
  }
}

// Bit-reversal permutation (an FFT's reordering) with __brev, Morton codes, bitset counts.
__global__ void bit_reverse_permute(const float2* __restrict__ in, float2* __restrict__ out, int log2n) {
  std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (1u << log2n)) return;
  out[__brev(i) >> (32 - log2n)] = in[i];
}

__device__ __forceinline__ std::uint64_t spread3(std::uint32_t v) {
  std::uint64_t x = v & 0x1fffff;
  x = (x | x << 32) & 0x1f00000000ffffull;
  x = (x | x << 16) & 0x1f0000ff0000ffull;
  x = (x | x << 8) & 0x100f00f00f00f00full;
  x = (x | x << 4) & 0x10c30c30c30c30c3ull;
  x = (x | x << 2) & 0x1249249249249249ull;
  return x;
}

__global__ void morton_encode3d(const float4* __restrict__ points, std::uint64_t* __restrict__ codes, float3 lo,
                                float3 scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 p = points[i];
  auto quantize = [](float v) { return static_cast<std::uint32_t>(fminf(fmaxf(v, 0.0f), 2097151.0f)); };
  std::uint32_t x = quantize((p.x - lo.x) * scale.x), y = quantize((p.y - lo.y) * scale.y),
                z = quantize((p.z - lo.z) * scale.z);
  codes[i] = spread3(x) | spread3(y) << 1 | spread3(z) << 2;
}

template <int Words>
__global__ void __launch_bounds__(256)
    bitset_intersect_count(const std::uint32_t* __restrict__ a, const std::uint32_t* __restrict__ b,
                           unsigned int* __restrict__ counts, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const uint4* ra = reinterpret_cast<const uint4*>(a + static_cast<size_t>(row) * Words);
  const uint4* rb = reinterpret_cast<const uint4*>(b);
  unsigned int total = 0;
#pragma unroll
  for (int w = 0; w < Words / 4; ++w) {
    uint4 x = ra[w], y = rb[w];
    total += __popc(x.x & y.x) + __popc(x.y & y.y) + __popc(x.z & y.z) + __popc(x.w & y.w);
  }
  counts[row] = total;
}

// Extracting packed fields: 4-bit quantized weights unpacked and dequantized (as in int4 GEMV).
template <int Groups>
__global__ void __launch_bounds__(128)
    dequant_int4_gemv(const std::uint32_t* __restrict__ packed, const __nv_bfloat16_raw* __restrict__ unused,
                      const float* __restrict__ scales, const float* __restrict__ x, float* __restrict__ y, int cols) {
  int row = blockIdx.x;
  float acc = 0.0f;
  for (int c = threadIdx.x * 8 * Groups; c < cols; c += blockDim.x * 8 * Groups) {
#pragma unroll
    for (int g = 0; g < Groups; ++g) {
      std::uint32_t word = packed[(static_cast<size_t>(row) * cols + c) / 8 + g];
      float scale = scales[(static_cast<size_t>(row) * cols + c + 8 * g) / 64];
#pragma unroll
      for (int k = 0; k < 8; ++k) {
        int q = static_cast<int>((word >> (4 * k)) & 0xf) - 8;
        acc = fmaf(scale * static_cast<float>(q), x[c + 8 * g + k], acc);
      }
    }
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(y + row, acc);
}

template __global__ void radix_histogram<std::uint32_t, 8, 256, 4>(const std::uint32_t*, std::uint32_t*, int, int);
template __global__ void radix_histogram<std::uint32_t, 4, 128, 16>(const std::uint32_t*, std::uint32_t*, int, int);
template __global__ void radix_histogram<std::uint64_t, 8, 256, 8>(const std::uint64_t*, std::uint32_t*, int, int);
template __global__ void radix_histogram<std::uint64_t, 11, 512, 4>(const std::uint64_t*, std::uint32_t*, int, int);
template __global__ void radix_rank_ballot<1>(const std::uint32_t*, std::uint32_t*, int, int);
template __global__ void radix_rank_ballot<8>(const std::uint32_t*, std::uint32_t*, int, int);
template __global__ void radix_scatter_float<4>(const float*, float*, const std::uint32_t*, int, int);
template __global__ void radix_scatter_float<16>(const float*, float*, const std::uint32_t*, int, int);
template __global__ void radix_digits_double<4>(const double*, std::uint16_t*, int);
template __global__ void bitset_intersect_count<16>(const std::uint32_t*, const std::uint32_t*, unsigned int*, int);
template __global__ void bitset_intersect_count<64>(const std::uint32_t*, const std::uint32_t*, unsigned int*, int);
template __global__ void dequant_int4_gemv<1>(const std::uint32_t*, const __nv_bfloat16_raw*, const float*,
                                              const float*, float*, int);
template __global__ void dequant_int4_gemv<4>(const std::uint32_t*, const __nv_bfloat16_raw*, const float*,
                                              const float*, float*, int);

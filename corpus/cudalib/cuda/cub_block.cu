// cub_block.cu: CUB block- and warp-level collectives (CCCL 3.0, CUDA 13).
//
//   * cub::BlockReduce (RAKING_COMMUTATIVE_ONLY, RAKING, WARP_REDUCTIONS): Sum, Reduce
//     with cuda::maximum, partial-tile Sum(valid)
//   * cub::BlockScan (RAKING, RAKING_MEMOIZE, WARP_SCANS): ExclusiveSum with aggregate,
//     InclusiveScan with a custom operator, ExclusiveScan with a running prefix callback
//   * cub::BlockLoad / cub::BlockStore: DIRECT, STRIPED, VECTORIZE, TRANSPOSE,
//     WARP_TRANSPOSE, WARP_TRANSPOSE_TIMESLICED, with guarded (partial) tiles
//   * cub::BlockRadixSort: keys, key-value pairs, descending, SortBlockedToStriped,
//     a bit range
//   * cub::BlockHistogram (SORT and ATOMIC) with InitHistogram/Composite
//   * cub::WarpReduce (Sum, Reduce, HeadSegmentedSum, logical warps of 16) and
//     cub::WarpScan (InclusiveSum, ExclusiveSum, ExclusiveScan, Broadcast)
//
// Every kernel is a template instantiated explicitly with a few configurations.
// Compiled for sm_80 and sm_90a.
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cuda/functional>
#include <cuda/std/limits>
#include <cstdint>

// ---------------------------------------------------------------------------------------
// 1. BlockReduce: per-tile sum and max, the last tile partial.
// ---------------------------------------------------------------------------------------
template <typename T, int BLOCK, int IPT, cub::BlockReduceAlgorithm ALGO>
__global__ void __launch_bounds__(BLOCK) block_reduce_tiles(const T* __restrict__ in, int n, T* __restrict__ sums,
                                                            T* __restrict__ maxima)
{
  using Reduce = cub::BlockReduce<T, BLOCK, ALGO>;
  using Load = cub::BlockLoad<T, BLOCK, IPT, cub::BLOCK_LOAD_DIRECT>;
  __shared__ typename Reduce::TempStorage tmp;

  constexpr int TILE_ITEMS = BLOCK * IPT;
  const int tile_base = blockIdx.x * TILE_ITEMS;
  const int valid = min(TILE_ITEMS, n - tile_base);
  T items[IPT];
  Load().Load(in + tile_base, items, valid, T(0));

  const T sum = Reduce(tmp).Sum(items);
  __syncthreads();  // tmp is reused
  T local_max = cuda::std::numeric_limits<T>::lowest();
  for (int i = 0; i < IPT; ++i) {
    if ((int)threadIdx.x * IPT + i < valid) {
      local_max = items[i] > local_max ? items[i] : local_max;
    }
  }
  const T mx = Reduce(tmp).Reduce(local_max, cuda::maximum<>{});
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = sum;
    maxima[blockIdx.x] = mx;
  }
}

// one value per thread, a partial block reduction (only the first `valid` threads count)
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) block_reduce_partial(const double* __restrict__ in, int n,
                                                              double* __restrict__ out)
{
  using Reduce = cub::BlockReduce<double, BLOCK, cub::BLOCK_REDUCE_RAKING>;
  __shared__ typename Reduce::TempStorage tmp;
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  const int valid = min(BLOCK, n - (int)(blockIdx.x * BLOCK));
  const double v = i < n ? in[i] : 0.0;
  const double s = Reduce(tmp).Sum(v, valid);
  if (threadIdx.x == 0) {
    out[blockIdx.x] = s;
  }
}

template __global__ void block_reduce_tiles<float, 256, 4, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>(
  const float*, int, float*, float*);
template __global__ void block_reduce_tiles<int, 128, 8, cub::BLOCK_REDUCE_WARP_REDUCTIONS>(const int*, int, int*, int*);
template __global__ void block_reduce_tiles<double, 128, 2, cub::BLOCK_REDUCE_RAKING>(const double*, int, double*,
                                                                                     double*);
template __global__ void block_reduce_partial<256>(const double*, int, double*);

// ---------------------------------------------------------------------------------------
// 2. BlockScan: stream compaction of the positive items of each tile (ExclusiveSum of the
//    keep flags gives each kept item its output slot; the aggregate is the tile count).
// ---------------------------------------------------------------------------------------
template <int BLOCK, int IPT, cub::BlockScanAlgorithm ALGO>
__global__ void __launch_bounds__(BLOCK) block_scan_compact(const float* __restrict__ in, int n,
                                                            float* __restrict__ out, int* __restrict__ tile_counts)
{
  using Scan = cub::BlockScan<int, BLOCK, ALGO>;
  using Load = cub::BlockLoad<float, BLOCK, IPT, cub::BLOCK_LOAD_STRIPED>;
  __shared__ typename Scan::TempStorage tmp;

  constexpr int TILE_ITEMS = BLOCK * IPT;
  const int tile_base = blockIdx.x * TILE_ITEMS;
  const int valid = min(TILE_ITEMS, n - tile_base);

  float items[IPT];
  Load().Load(in + tile_base, items, valid, -1.0f);  // out-of-range items are never kept
  int flags[IPT];
  int slots[IPT];
  for (int i = 0; i < IPT; ++i) {
    flags[i] = items[i] > 0.0f ? 1 : 0;
  }
  int kept = 0;
  Scan(tmp).ExclusiveSum(flags, slots, kept);
  for (int i = 0; i < IPT; ++i) {
    if (flags[i]) {
      out[tile_base + slots[i]] = items[i];
    }
  }
  if (threadIdx.x == 0) {
    tile_counts[blockIdx.x] = kept;
  }
}

// running maximum over a whole row processed tile by tile, with a prefix callback that
// carries the running value from tile to tile
struct RunningMax {
  int running;
  __device__ int operator()(int tile_aggregate)
  {
    const int old = running;
    running = max(running, tile_aggregate);
    return old;
  }
};

template <int BLOCK, cub::BlockScanAlgorithm ALGO>
__global__ void __launch_bounds__(BLOCK) block_scan_running_max(const int* __restrict__ in, int ntiles,
                                                                int* __restrict__ out)
{
  using Scan = cub::BlockScan<int, BLOCK, ALGO>;
  __shared__ typename Scan::TempStorage tmp;
  const size_t row = (size_t)blockIdx.x * ntiles * BLOCK;
  RunningMax prefix{INT_MIN};
  for (int t = 0; t < ntiles; ++t) {
    const int v = in[row + (size_t)t * BLOCK + threadIdx.x];
    int r;
    Scan(tmp).ExclusiveScan(v, r, cuda::maximum<>{}, prefix);
    __syncthreads();
    out[row + (size_t)t * BLOCK + threadIdx.x] = max(r, v);
  }
}

// inclusive scan with a user-defined associative operator (affine map composition)
struct Affine {
  float a, b;  // x -> a*x + b
};
struct ComposeAffine {
  __device__ Affine operator()(const Affine& f, const Affine& g) const
  {
    return Affine{g.a * f.a, g.a * f.b + g.b};  // g after f
  }
};

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) block_scan_affine(const float2* __restrict__ coeffs, float x0,
                                                           float* __restrict__ out)
{
  using Scan = cub::BlockScan<Affine, BLOCK, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename Scan::TempStorage tmp;
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  const float2 c = coeffs[i];
  Affine f{c.x, c.y}, composed;
  Scan(tmp).InclusiveScan(f, composed, ComposeAffine{});
  out[i] = composed.a * x0 + composed.b;
}

template __global__ void block_scan_compact<256, 4, cub::BLOCK_SCAN_RAKING>(const float*, int, float*, int*);
template __global__ void block_scan_compact<128, 8, cub::BLOCK_SCAN_WARP_SCANS>(const float*, int, float*, int*);
template __global__ void block_scan_running_max<256, cub::BLOCK_SCAN_RAKING_MEMOIZE>(const int*, int, int*);
template __global__ void block_scan_affine<128>(const float2*, float, float*);

// ---------------------------------------------------------------------------------------
// 3. BlockLoad / BlockStore: copy-and-scale a tile with each load/store algorithm pair.
//    Full tiles use the unguarded overloads, the last tile the guarded ones.
// ---------------------------------------------------------------------------------------
template <typename T, int BLOCK, int IPT, cub::BlockLoadAlgorithm LA, cub::BlockStoreAlgorithm SA>
__global__ void __launch_bounds__(BLOCK) block_load_store(const T* __restrict__ in, T* __restrict__ out, int n, T scale)
{
  using Load = cub::BlockLoad<T, BLOCK, IPT, LA>;
  using Store = cub::BlockStore<T, BLOCK, IPT, SA>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
  } tmp;

  constexpr int TILE_ITEMS = BLOCK * IPT;
  T items[IPT];
  for (int tile_base = blockIdx.x * TILE_ITEMS; tile_base < n; tile_base += gridDim.x * TILE_ITEMS) {
    const int valid = n - tile_base;
    if (valid >= TILE_ITEMS) {
      Load(tmp.load).Load(in + tile_base, items);
    } else {
      Load(tmp.load).Load(in + tile_base, items, valid);
    }
    __syncthreads();
    for (int i = 0; i < IPT; ++i) {
      items[i] = items[i] * scale;
    }
    if (valid >= TILE_ITEMS) {
      Store(tmp.store).Store(out + tile_base, items);
    } else {
      Store(tmp.store).Store(out + tile_base, items, valid);
    }
    __syncthreads();
  }
}

template __global__ void block_load_store<float, 128, 4, cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT>(
  const float*, float*, int, float);
template __global__ void block_load_store<float, 128, 4, cub::BLOCK_LOAD_VECTORIZE, cub::BLOCK_STORE_VECTORIZE>(
  const float*, float*, int, float);
template __global__ void block_load_store<float, 256, 4, cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>(
  const float*, float*, int, float);
template __global__ void
block_load_store<int, 128, 8, cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE>(const int*, int*, int,
                                                                                                int);
template __global__ void block_load_store<double, 64, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED,
                                          cub::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>(const double*, double*, int,
                                                                                      double);
template __global__ void block_load_store<short, 128, 8, cub::BLOCK_LOAD_STRIPED, cub::BLOCK_STORE_STRIPED>(
  const short*, short*, int, short);

// ---------------------------------------------------------------------------------------
// 4. BlockRadixSort: sort each tile (keys only, key-value, descending, bit range).
// ---------------------------------------------------------------------------------------
template <int BLOCK, int IPT>
__global__ void __launch_bounds__(BLOCK) block_sort_keys(const uint32_t* __restrict__ in, uint32_t* __restrict__ out)
{
  using Sort = cub::BlockRadixSort<uint32_t, BLOCK, IPT>;
  using Load = cub::BlockLoad<uint32_t, BLOCK, IPT, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<uint32_t, BLOCK, IPT, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union {
    typename Sort::TempStorage sort;
    typename Load::TempStorage load;
    typename Store::TempStorage store;
  } tmp;

  const int base = blockIdx.x * BLOCK * IPT;
  uint32_t keys[IPT];
  Load(tmp.load).Load(in + base, keys);
  __syncthreads();
  Sort(tmp.sort).Sort(keys);
  __syncthreads();
  Store(tmp.store).Store(out + base, keys);
}

template <int BLOCK, int IPT>
__global__ void __launch_bounds__(BLOCK) block_sort_pairs_desc(const float* __restrict__ keys_in,
                                                               const int* __restrict__ vals_in,
                                                               float* __restrict__ keys_out, int* __restrict__ vals_out)
{
  using Sort = cub::BlockRadixSort<float, BLOCK, IPT, int>;
  __shared__ typename Sort::TempStorage tmp;
  const int base = blockIdx.x * BLOCK * IPT;
  float k[IPT];
  int v[IPT];
  cub::LoadDirectBlocked(threadIdx.x, keys_in + base, k);
  cub::LoadDirectBlocked(threadIdx.x, vals_in + base, v);
  Sort(tmp).SortDescending(k, v);
  cub::StoreDirectBlocked(threadIdx.x, keys_out + base, k);
  cub::StoreDirectBlocked(threadIdx.x, vals_out + base, v);
}

// sort by the low 12 bits only, leaving the result striped across threads
template <int BLOCK, int IPT>
__global__ void __launch_bounds__(BLOCK) block_sort_low_bits_striped(const uint16_t* __restrict__ in,
                                                                     uint16_t* __restrict__ out)
{
  using Sort = cub::BlockRadixSort<uint16_t, BLOCK, IPT>;
  __shared__ typename Sort::TempStorage tmp;
  const int base = blockIdx.x * BLOCK * IPT;
  uint16_t k[IPT];
  cub::LoadDirectStriped<BLOCK>(threadIdx.x, in + base, k);
  Sort(tmp).SortBlockedToStriped(k, 0, 12);
  cub::StoreDirectStriped<BLOCK>(threadIdx.x, out + base, k);
}

template __global__ void block_sort_keys<128, 8>(const uint32_t*, uint32_t*);
template __global__ void block_sort_pairs_desc<256, 4>(const float*, const int*, float*, int*);
template __global__ void block_sort_low_bits_striped<128, 4>(const uint16_t*, uint16_t*);

// ---------------------------------------------------------------------------------------
// 5. BlockHistogram over bytes: sort-based and atomic-based, combined into a global
//    histogram with atomicAdd.
// ---------------------------------------------------------------------------------------
template <int BLOCK, int IPT, cub::BlockHistogramAlgorithm ALGO>
__global__ void __launch_bounds__(BLOCK) block_histogram_bytes(const uint8_t* __restrict__ in, int ntiles,
                                                               unsigned* __restrict__ hist)
{
  constexpr int BINS = 256;
  using Histo = cub::BlockHistogram<uint8_t, BLOCK, IPT, BINS, ALGO>;
  __shared__ typename Histo::TempStorage tmp;
  __shared__ unsigned smem_hist[BINS];

  Histo histo(tmp);
  histo.InitHistogram(smem_hist);
  __syncthreads();
  for (int t = blockIdx.x; t < ntiles; t += gridDim.x) {
    uint8_t samples[IPT];
    cub::LoadDirectStriped<BLOCK>(threadIdx.x, in + (size_t)t * BLOCK * IPT, samples);
    histo.Composite(samples, smem_hist);
    __syncthreads();
  }
  for (int b = threadIdx.x; b < BINS; b += BLOCK) {
    if (smem_hist[b]) {
      atomicAdd(&hist[b], smem_hist[b]);
    }
  }
}

template __global__ void block_histogram_bytes<256, 8, cub::BLOCK_HISTO_SORT>(const uint8_t*, int, unsigned*);
template __global__ void block_histogram_bytes<128, 16, cub::BLOCK_HISTO_ATOMIC>(const uint8_t*, int, unsigned*);

// ---------------------------------------------------------------------------------------
// 6. WarpReduce and WarpScan.
// ---------------------------------------------------------------------------------------
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) warp_reduce_rows(const float* __restrict__ m, int ncols,
                                                          float* __restrict__ row_sums, float* __restrict__ row_max)
{
  constexpr int WARPS = BLOCK / 32;
  using WarpReduce = cub::WarpReduce<float>;
  __shared__ typename WarpReduce::TempStorage tmp[WARPS];
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int row = blockIdx.x * WARPS + warp;
  const float* r = m + (size_t)row * ncols;

  float s = 0.0f;
  float mx = -INFINITY;
  for (int c = lane; c < ncols; c += 32) {
    s += r[c];
    mx = fmaxf(mx, r[c]);
  }
  const float total = WarpReduce(tmp[warp]).Sum(s);
  __syncwarp();
  const float best = WarpReduce(tmp[warp]).Reduce(mx, cuda::maximum<>{});
  if (lane == 0) {
    row_sums[row] = total;
    row_max[row] = best;
  }
}

// segmented sums inside logical warps of 16: head flags mark segment starts
__global__ void __launch_bounds__(128) warp16_segmented_sum(const int* __restrict__ v, const int* __restrict__ heads,
                                                            int* __restrict__ seg_sums)
{
  using WarpReduce16 = cub::WarpReduce<int, 16>;
  __shared__ typename WarpReduce16::TempStorage tmp[128 / 16];
  const int gid = blockIdx.x * 128 + threadIdx.x;
  const int lw = threadIdx.x / 16;
  const int flag = heads[gid] | ((threadIdx.x % 16) == 0);
  const int s = WarpReduce16(tmp[lw]).HeadSegmentedSum(v[gid], flag);
  if (threadIdx.x % 16 == 0) {
    seg_sums[gid / 16] = s;  // the first segment's sum is valid in lane 0
  }
}

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) warp_scan_offsets(const int* __restrict__ sizes, int* __restrict__ inclusive,
                                                           int* __restrict__ offsets, int* __restrict__ running_min)
{
  constexpr int WARPS = BLOCK / 32;
  using WarpScan = cub::WarpScan<int>;
  __shared__ typename WarpScan::TempStorage tmp[WARPS];
  const int warp = threadIdx.x / 32;
  const int gid = blockIdx.x * BLOCK + threadIdx.x;
  const int sz = sizes[gid];

  int inc, exc, total, mn;
  WarpScan(tmp[warp]).InclusiveSum(sz, inc);
  __syncwarp();
  WarpScan(tmp[warp]).ExclusiveSum(sz, exc, total);
  __syncwarp();
  WarpScan(tmp[warp]).ExclusiveScan(sz, mn, INT_MAX, cuda::minimum<>{});
  __syncwarp();
  const int last = WarpScan(tmp[warp]).Broadcast(inc, 31);
  inclusive[gid] = inc;
  offsets[gid] = exc + (total - last);  // total == last: adds 0, uses both results
  running_min[gid] = mn;
}

template __global__ void warp_reduce_rows<256>(const float*, int, float*, float*);
template __global__ void warp_scan_offsets<128>(const int*, int*, int*, int*);

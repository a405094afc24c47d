// coop_groups.cu: cooperative groups library code paths.
//
//   * thread_block, tiled_partition<32>/<16>/<4> (static) and tiled_partition(block, 32)
//     (dynamic), meta_group_rank/size, cg::sync
//   * cg::reduce (plus, less, greater, bit_or), cg::inclusive_scan / exclusive_scan,
//     tile shfl/shfl_xor/shfl_down, any/all/ballot, match_any
//   * grid_group: this_grid().sync() in a two-phase kernel (cooperative launch)
//   * cluster_group (sm_90+): sync, barrier_arrive/barrier_wait, map_shared_rank,
//     block_rank, num_blocks, dim_blocks; a per-block fallback below sm_90
//   * labeled_partition, binary_partition, coalesced_threads, invoke_one_broadcast
//     (elect.sync on sm_90)
//
// Compiled for sm_80 and sm_90a.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cstdint>
#include <utility>

namespace cg = cooperative_groups;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define HAS_SM90 1
#define CLUSTER4 __cluster_dims__(4, 1, 1)
#else
#define HAS_SM90 0
#define CLUSTER4
#endif

// ---------------------------------------------------------------------------------------
// 1. Block reduction with static and dynamic tiles of 32.
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(256) cg_block_sum(const float* __restrict__ in, int n, float* __restrict__ total)
{
  __shared__ float warp_sums[8];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);

  float v = 0.0f;
  for (int i = blockIdx.x * block.size() + block.thread_rank(); i < n; i += gridDim.x * block.size()) {
    v += in[i];
  }
  v = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0) {
    warp_sums[warp.meta_group_rank()] = v;
  }
  block.sync();

  // second level with a dynamically sized partition (thread_group)
  cg::thread_group tile = cg::tiled_partition(block, 32);
  if (block.thread_rank() < 32) {
    float s = tile.thread_rank() < 8 ? warp_sums[tile.thread_rank()] : 0.0f;
    s = cg::reduce(warp, s, cg::plus<float>());
    if (tile.thread_rank() == 0) {
      atomicAdd(total, s);
    }
  }
}

// ---------------------------------------------------------------------------------------
// 2. Tiles of 16: min/max reduction, prefix sums and votes within each half-warp.
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(128) cg_tile16_scan(const int* __restrict__ in, int* __restrict__ prefix,
                                                      int* __restrict__ exclusive, int2* __restrict__ minmax,
                                                      unsigned* __restrict__ flags)
{
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> half = cg::tiled_partition<16>(block);
  const int gid = blockIdx.x * block.size() + block.thread_rank();
  const int v = in[gid];

  prefix[gid] = cg::inclusive_scan(half, v);
  exclusive[gid] = cg::exclusive_scan(half, v, cg::bit_or<int>());

  const int lo = cg::reduce(half, v, cg::less<int>());
  const int hi = cg::reduce(half, v, cg::greater<int>());
  const int gidx = gid / 16;
  if (half.thread_rank() == 0) {
    minmax[gidx] = make_int2(lo, hi);
  }

  // neighbours inside the tile
  const int left = half.shfl_up(v, 1);
  const int mirror = half.shfl_xor(v, 15);
  const int first = half.shfl(v, 0);
  const unsigned neg = half.ballot(v < 0);
  const bool any_big = half.any(v > 1000);
  const bool all_pos = half.all(v > 0);
  const unsigned same = half.match_any(v);
  half.sync();
  if (half.thread_rank() == 0) {
    flags[gidx] = neg | (any_big ? 1u << 16 : 0u) | (all_pos ? 1u << 17 : 0u) | ((unsigned)__popc(same) << 20);
  }
  prefix[gid] += (left + mirror + first) & 1;
}

// ---------------------------------------------------------------------------------------
// 3. Grid-wide synchronisation (cooperative launch): softmax normalisation of a vector in
//    two phases, the grid-wide max and sum reduced through global scratch.
//    scratch must hold 2 * gridDim.x floats.
// ---------------------------------------------------------------------------------------
__device__ float block_reduce_max(cg::thread_block block, float v, float* sh)
{
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  v = cg::reduce(warp, v, cg::greater<float>());
  if (warp.thread_rank() == 0) {
    sh[warp.meta_group_rank()] = v;
  }
  block.sync();
  v = block.thread_rank() < warp.meta_group_size() ? sh[block.thread_rank()] : -INFINITY;
  if (warp.meta_group_rank() == 0) {
    v = cg::reduce(warp, v, cg::greater<float>());
  }
  block.sync();
  return v;
}

__device__ float block_reduce_sum(cg::thread_block block, float v, float* sh)
{
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  v = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0) {
    sh[warp.meta_group_rank()] = v;
  }
  block.sync();
  v = block.thread_rank() < warp.meta_group_size() ? sh[block.thread_rank()] : 0.0f;
  if (warp.meta_group_rank() == 0) {
    v = cg::reduce(warp, v, cg::plus<float>());
  }
  block.sync();
  return v;
}

__global__ void __launch_bounds__(256) cg_grid_softmax(float* __restrict__ x, int n, float* __restrict__ scratch)
{
  __shared__ float sh[32];
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();

  float m = -INFINITY;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) {
    m = fmaxf(m, x[i]);
  }
  m = block_reduce_max(block, m, sh);
  if (block.thread_rank() == 0) {
    scratch[blockIdx.x] = m;
  }
  grid.sync();

  m = -INFINITY;
  for (unsigned b = 0; b < gridDim.x; ++b) {
    m = fmaxf(m, scratch[b]);
  }
  float s = 0.0f;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) {
    const float e = __expf(x[i] - m);
    x[i] = e;
    s += e;
  }
  s = block_reduce_sum(block, s, sh);
  if (block.thread_rank() == 0) {
    scratch[gridDim.x + blockIdx.x] = s;
  }
  grid.sync();

  s = 0.0f;
  for (unsigned b = 0; b < gridDim.x; ++b) {
    s += scratch[gridDim.x + b];
  }
  const float inv = 1.0f / s;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) {
    x[i] *= inv;
  }
}

// ---------------------------------------------------------------------------------------
// 4. Cluster of 4 (sm_90+): each block reduces its slice into shared memory, then block 0
//    of the cluster reads the other blocks' partial sums through distributed shared memory.
//    Below sm_90 every block adds its own partial sum atomically.
// ---------------------------------------------------------------------------------------
__global__ void CLUSTER4 __launch_bounds__(256) cg_cluster_sum(const float* __restrict__ in, int n,
                                                               float* __restrict__ out)
{
  __shared__ float sh[32];
  __shared__ float partial;
  cg::thread_block block = cg::this_thread_block();

  float v = 0.0f;
  for (int i = blockIdx.x * block.size() + block.thread_rank(); i < n; i += gridDim.x * block.size()) {
    v += in[i];
  }
  v = block_reduce_sum(block, v, sh);
  if (block.thread_rank() == 0) {
    partial = v;
  }
#if HAS_SM90
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();  // every block's `partial` is written
  if (cluster.block_rank() == 0 && block.thread_rank() < cluster.num_blocks()) {
    float* remote = cluster.map_shared_rank(&partial, (int)block.thread_rank());
    float p = *remote;
    cg::coalesced_group active = cg::coalesced_threads();
    p = cg::reduce(active, p, cg::plus<float>());
    if (active.thread_rank() == 0) {
      atomicAdd(out, p);
    }
  }
  // split arrive/wait: nobody may exit while block 0 can still read its shared memory
  auto token = cluster.barrier_arrive();
  cluster.barrier_wait(std::move(token));
  (void) cluster.dim_blocks();
#else
  if (block.thread_rank() == 0) {
    atomicAdd(out, partial);
  }
#endif
}

// ---------------------------------------------------------------------------------------
// 5. Cluster of 4 (sm_90+): a 1D stencil whose halo comes from the neighbouring blocks'
//    shared memory. Each block holds 256 values; halo values at the cluster's edges are 0.
// ---------------------------------------------------------------------------------------
__global__ void CLUSTER4 __launch_bounds__(256) cg_cluster_halo(const float* __restrict__ in, float* __restrict__ out)
{
  __shared__ float vals[256];
  cg::thread_block block = cg::this_thread_block();
  const unsigned t = block.thread_rank();
  const size_t gid = (size_t)blockIdx.x * 256 + t;
  vals[t] = in[gid];
#if HAS_SM90
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  const int rank = (int)cluster.block_rank();
  float left, right;
  if (t > 0) {
    left = vals[t - 1];
  } else {
    left = rank > 0 ? *cluster.map_shared_rank(&vals[255], rank - 1) : 0.0f;
  }
  if (t < 255) {
    right = vals[t + 1];
  } else {
    right = rank + 1 < (int)cluster.num_blocks() ? *cluster.map_shared_rank(&vals[0], rank + 1) : 0.0f;
  }
  out[gid] = 0.25f * left + 0.5f * vals[t] + 0.25f * right;
  cluster.sync();
#else
  block.sync();
  const float left = t > 0 ? vals[t - 1] : 0.0f;
  const float right = t < 255 ? vals[t + 1] : 0.0f;
  out[gid] = 0.25f * left + 0.5f * vals[t] + 0.25f * right;
#endif
}

// ---------------------------------------------------------------------------------------
// 6. labeled_partition: per-key counts inside each warp, aggregated atomically by one
//    lane per key; binary_partition for a sign split; coalesced_threads in a branch.
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(256) cg_key_counts(const int* __restrict__ keys, const float* __restrict__ vals,
                                                     int n, unsigned* __restrict__ counts,
                                                     float* __restrict__ key_sums, float* __restrict__ signs)
{
  cg::thread_block block = cg::this_thread_block();
  const int i = blockIdx.x * block.size() + block.thread_rank();
  if (i >= n) {
    return;
  }
  // from here on the warp may be partial: work on the coalesced group of active lanes
  cg::coalesced_group active = cg::coalesced_threads();
  const int key = keys[i] & 63;
  const float v = vals[i];

  cg::coalesced_group same = cg::labeled_partition(active, key);
  const float s = cg::reduce(same, v, cg::plus<float>());
  if (same.thread_rank() == 0) {
    atomicAdd(&counts[key], same.size());
    atomicAdd(&key_sums[key], s);
  }

  cg::coalesced_group side = cg::binary_partition(active, v < 0.0f);
  const float side_sum = cg::reduce(side, v, cg::plus<float>());
  if (side.thread_rank() == 0) {
    atomicAdd(&signs[v < 0.0f ? 1 : 0], side_sum);
  }
}

// ---------------------------------------------------------------------------------------
// 7. Warp-aggregated allocation with invoke_one_broadcast (elect.sync on sm_90): one lane
//    reserves space for the whole warp, every lane gets the base offset.
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(256) cg_compact_positive(const float* __restrict__ in, int n,
                                                           float* __restrict__ out, unsigned* __restrict__ count)
{
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * block.size() + block.thread_rank();
  const float v = i < n ? in[i] : 0.0f;
  const bool keep = v > 0.0f;

  const unsigned mask = warp.ballot(keep);
  const unsigned total = __popc(mask);
  if (total == 0) {
    return;  // uniform across the warp
  }
  const unsigned base = cg::invoke_one_broadcast(warp, [&]() -> unsigned { return atomicAdd(count, total); });
  if (keep) {
    const unsigned lane_offset = __popc(mask & ((1u << warp.thread_rank()) - 1u));
    out[base + lane_offset] = v;
  }
}

// ---------------------------------------------------------------------------------------
// 8. Nested tiles: tiled_partition<4> of a tile<32>, cg::sync on each level. Each quad
//    computes y = A x for a 4x4 matrix A (row `lane` held by each lane) and a vector x
//    distributed over the lanes (x[lane]).
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(128) cg_quad_matvec(const float4* __restrict__ a, const float* __restrict__ x,
                                                      float* __restrict__ y)
{
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<4> quad = cg::tiled_partition<4>(warp);
  const int gid = blockIdx.x * block.size() + block.thread_rank();

  const float4 row = a[gid];
  const float xv = x[gid];
  float acc = row.x * quad.shfl(xv, 0);
  acc += row.y * quad.shfl(xv, 1);
  acc += row.z * quad.shfl(xv, 2);
  acc += row.w * quad.shfl(xv, 3);
  cg::sync(quad);
  y[gid] = acc;
  // the quad sums land in lane 0 of each quad; lane 0 of the warp adds the 8 quads
  float qsum = cg::reduce(quad, acc, cg::plus<float>());
  float wsum = warp.shfl_down(qsum, 16);
  qsum += wsum;
  wsum = warp.shfl_down(qsum, 8);
  qsum += wsum;
  wsum = warp.shfl_down(qsum, 4);
  qsum += wsum;
  cg::sync(warp);
  if (warp.thread_rank() == 0) {
    y[gridDim.x * block.size() + blockIdx.x * warp.meta_group_size() + warp.meta_group_rank()] = qsum;
  }
  (void) quad.meta_group_rank();
}

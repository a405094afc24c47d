// barrier_pipeline.cu: asynchronous copies through libcu++ and cooperative groups.
//
//   * cuda::barrier<cuda::thread_scope_block> in shared memory with cuda::memcpy_async
//     (group form, cuda::aligned_size_t<16>), arrive_and_wait, reuse over several phases
//   * cuda::device::memcpy_async_tx + cuda::device::barrier_arrive_tx (sm_90+, a plain
//     cuda::memcpy_async fallback below), with cuda::ptx::fence_proxy_async after init
//   * kernel 1 uses cuda::memcpy_async(group, ..., barrier) as documented, without a proxy
//     fence of its own: on sm_90 libcu++ lowers it to cp.async.bulk completing on the
//     barrier (see corpus/cudalib/README.md for what ptxlint says about that)
//   * cuda::pipeline<thread_scope_block> with cuda::pipeline_shared_state, multi-stage
//     producer_acquire/commit and consumer_wait/release; a partitioned pipeline with
//     producer and consumer roles (cuda::pipeline_role)
//   * cuda::pipeline<thread_scope_thread> (cuda::make_pipeline()) with
//     cuda::pipeline_consumer_wait_prior
//   * cooperative_groups::memcpy_async with cg::wait / cg::wait_prior, block and tile
//
// Compiled for sm_80 (cp.async, mbarrier) and sm_90a (cp.async.bulk, expect_tx).
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/ptx>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cuda/std/utility>
#include <climits>
#include <cstdint>

namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

// __shared__ variables cannot have dynamic initialisation; the barriers are initialised
// with init() by one thread instead.
#pragma nv_diag_suppress static_var_with_dynamic_init

constexpr int TILE = 1024;  // floats per tile

__device__ float block_sum(cg::thread_block block, float v, float* scratch)
{
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  v = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0) {
    scratch[warp.meta_group_rank()] = v;
  }
  block.sync();
  float total = 0.0f;
  if (warp.meta_group_rank() == 0) {
    total = warp.thread_rank() < warp.meta_group_size() ? scratch[warp.thread_rank()] : 0.0f;
    total = cg::reduce(warp, total, cg::plus<float>());
  }
  block.sync();
  return total;  // valid in thread 0
}

// ---------------------------------------------------------------------------------------
// 1. cuda::barrier + cuda::memcpy_async (whole block), one tile per phase.
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(256) barrier_tile_sums(const float* __restrict__ in, float* __restrict__ sums,
                                                         int ntiles)
{
  __shared__ alignas(16) float tile[TILE];
  __shared__ float scratch[32];
  __shared__ block_barrier bar;

  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) {
    init(&bar, block.size());
  }
  block.sync();

  for (int t = blockIdx.x; t < ntiles; t += gridDim.x) {
    cuda::memcpy_async(block, tile, in + (size_t)t * TILE, cuda::aligned_size_t<16>(sizeof(tile)), bar);
    bar.arrive_and_wait();

    float v = 0.0f;
    for (int i = block.thread_rank(); i < TILE; i += block.size()) {
      v += tile[i] * tile[i];
    }
    // block_sum ends with block.sync(), so nobody reads tile when the next copy starts
    float s = block_sum(block, v, scratch);
    if (block.thread_rank() == 0) {
      sums[t] = s;
    }
  }
}

// ---------------------------------------------------------------------------------------
// 2. Explicit transaction counts: one thread issues memcpy_async_tx and arrives with the
//    byte count (barrier_arrive_tx); everyone else arrives normally and waits on its token.
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(128) barrier_tx_axpy(const float* __restrict__ x, float* __restrict__ y, float a)
{
  __shared__ alignas(16) float xs[TILE];
  __shared__ alignas(16) float ys[TILE];
  __shared__ block_barrier bar;

  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) {
    init(&bar, block.size());
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    // the bulk copies below complete on bar through the async proxy: make the
    // initialised barrier visible to it (as the CUDA programming guide's TMA examples do)
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
#endif
  }
  block.sync();

  const size_t base = (size_t)blockIdx.x * TILE;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  block_barrier::arrival_token token;
  if (block.thread_rank() == 0) {
    cuda::device::memcpy_async_tx(xs, x + base, cuda::aligned_size_t<16>(sizeof(xs)), bar);
    cuda::device::memcpy_async_tx(ys, y + base, cuda::aligned_size_t<16>(sizeof(ys)), bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(xs) + sizeof(ys));
  } else {
    token = bar.arrive();
  }
  bar.wait(cuda::std::move(token));
#else
  cuda::memcpy_async(block, xs, x + base, cuda::aligned_size_t<16>(sizeof(xs)), bar);
  cuda::memcpy_async(block, ys, y + base, cuda::aligned_size_t<16>(sizeof(ys)), bar);
  bar.arrive_and_wait();
#endif

  for (int i = block.thread_rank(); i < TILE; i += block.size()) {
    y[base + i] = a * xs[i] + ys[i];
  }
}

// ---------------------------------------------------------------------------------------
// 3. Multi-stage block-scoped cuda::pipeline: a 1D 3-point stencil over a long row,
//    streamed in chunks of CHUNK floats (with a 1-element halo on each side).
// ---------------------------------------------------------------------------------------
constexpr int STAGES = 3;
constexpr int CHUNK = 512;

__global__ void __launch_bounds__(256) pipeline_stencil(const float* __restrict__ in, float* __restrict__ out,
                                                        int nchunks)
{
  // each stage holds CHUNK + 2 floats, padded to CHUNK + 4 so every stage stays 16-byte aligned
  __shared__ alignas(16) float stage[STAGES][CHUNK + 4];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;

  cg::thread_block block = cg::this_thread_block();
  cuda::pipeline<cuda::thread_scope_block> pipe = cuda::make_pipeline(block, &state);

  // in has nchunks*CHUNK + 4 floats per row; chunk c starts at in[row + c*CHUNK]
  const float* row = in + (size_t)blockIdx.x * ((size_t)nchunks * CHUNK + 4);
  float* orow = out + (size_t)blockIdx.x * (size_t)nchunks * CHUNK;

  int fetch = 0;
  for (; fetch < STAGES && fetch < nchunks; ++fetch) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, stage[fetch % STAGES], row + (size_t)fetch * CHUNK,
                       cuda::aligned_size_t<16>((CHUNK + 4) * sizeof(float)), pipe);
    pipe.producer_commit();
  }

  for (int c = 0; c < nchunks; ++c) {
    const int s = c % STAGES;
    pipe.consumer_wait();
    for (int i = block.thread_rank(); i < CHUNK; i += block.size()) {
      orow[(size_t)c * CHUNK + i] = 0.25f * stage[s][i] + 0.5f * stage[s][i + 1] + 0.25f * stage[s][i + 2];
    }
    pipe.consumer_release();

    if (fetch < nchunks) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, stage[fetch % STAGES], row + (size_t)fetch * CHUNK,
                         cuda::aligned_size_t<16>((CHUNK + 4) * sizeof(float)), pipe);
      pipe.producer_commit();
      ++fetch;
    }
  }
}

// ---------------------------------------------------------------------------------------
// 4. Partitioned pipeline: warp 0 produces (copies), the other warps consume.
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(160) pipeline_roles_dot(const float4* __restrict__ a, const float4* __restrict__ b,
                                                          int nchunks, float* __restrict__ dots)
{
  constexpr int VEC = 256;  // float4 per chunk and operand
  __shared__ alignas(16) float4 sa[2][VEC];
  __shared__ alignas(16) float4 sb[2][VEC];
  __shared__ float scratch[32];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;

  cg::thread_block block = cg::this_thread_block();
  const bool producer = block.thread_rank() < 32;
  const cuda::pipeline_role role = producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
  cuda::pipeline<cuda::thread_scope_block> pipe = cuda::make_pipeline(block, &state, role);

  const size_t base = (size_t)blockIdx.x * nchunks * VEC;
  float acc = 0.0f;
  if (producer) {
    for (int c = 0; c < nchunks; ++c) {
      pipe.producer_acquire();
      for (int i = block.thread_rank(); i < VEC; i += 32) {
        cuda::memcpy_async(&sa[c & 1][i], &a[base + (size_t)c * VEC + i], sizeof(float4), pipe);
        cuda::memcpy_async(&sb[c & 1][i], &b[base + (size_t)c * VEC + i], sizeof(float4), pipe);
      }
      pipe.producer_commit();
    }
  } else {
    const int ct = block.thread_rank() - 32;  // 0..127
    for (int c = 0; c < nchunks; ++c) {
      pipe.consumer_wait();
      for (int i = ct; i < VEC; i += 128) {
        const float4 x = sa[c & 1][i];
        const float4 y = sb[c & 1][i];
        acc += x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
      }
      pipe.consumer_release();
    }
  }
  const float total = block_sum(block, acc, scratch);
  if (block.thread_rank() == 0) {
    dots[blockIdx.x] = total;
  }
}

// ---------------------------------------------------------------------------------------
// 5. Per-thread pipeline (thread_scope_thread): each thread prefetches its own float4s
//    DEPTH iterations ahead and waits with pipeline_consumer_wait_prior.
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(128) thread_pipeline_norms(const float4* __restrict__ v, int per_thread,
                                                             float* __restrict__ norms)
{
  constexpr int DEPTH = 4;
  __shared__ alignas(16) float4 ring[DEPTH][128];

  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const size_t gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const size_t stride = (size_t)gridDim.x * blockDim.x;

  for (int k = 0; k < DEPTH; ++k) {
    pipe.producer_acquire();
    if (k < per_thread) {
      cuda::memcpy_async(&ring[k][threadIdx.x], &v[gid + k * stride], sizeof(float4), pipe);
    }
    pipe.producer_commit();
  }

  float acc = 0.0f;
  for (int k = 0; k < per_thread; ++k) {
    cuda::pipeline_consumer_wait_prior<DEPTH - 1>(pipe);
    const float4 q = ring[k % DEPTH][threadIdx.x];
    acc += q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    pipe.consumer_release();

    pipe.producer_acquire();
    if (k + DEPTH < per_thread) {
      cuda::memcpy_async(&ring[k % DEPTH][threadIdx.x], &v[gid + (k + DEPTH) * stride], sizeof(float4), pipe);
    }
    pipe.producer_commit();
  }
  norms[gid] = sqrtf(acc);
}

// ---------------------------------------------------------------------------------------
// 6. cooperative_groups::memcpy_async, double-buffered across the block, with
//    cg::wait_prior<1> for the older buffer and cg::wait for the last one.
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(256) cg_double_buffer_max(const int* __restrict__ in, int ntiles,
                                                            int* __restrict__ out)
{
  __shared__ alignas(16) int buf[2][TILE];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);

  const int* src = in + (size_t)blockIdx.x * ntiles * TILE;
  int best = INT_MIN;
  cg::memcpy_async(block, buf[0], src, sizeof(int) * TILE);
  for (int t = 0; t < ntiles; ++t) {
    if (t + 1 < ntiles) {
      cg::memcpy_async(block, buf[(t + 1) & 1], src + (size_t)(t + 1) * TILE, sizeof(int) * TILE);
      cg::wait_prior<1>(block);  // tile t has landed, tile t+1 may still be in flight
    } else {
      cg::wait(block);
    }
    for (int i = block.thread_rank(); i < TILE; i += block.size()) {
      best = max(best, buf[t & 1][i]);
    }
    block.sync();  // buf[t & 1] is overwritten by the copy issued in the next iteration
  }
  best = cg::reduce(warp, best, cg::greater<int>());
  if (warp.thread_rank() == 0) {
    atomicMax(out, best);
  }
}

// ---------------------------------------------------------------------------------------
// 7. Per-warp cg::memcpy_async on a thread_block_tile<32>: each warp stages its own row,
//    with cuda::aligned_size_t to allow 16-byte copies. ncols is a multiple of 4 (rows
//    start 16-byte aligned) and at most MAXC.
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(128) cg_tile_row_normalize(float* __restrict__ rows, int ncols)
{
  constexpr int MAXC = 512;
  __shared__ alignas(16) float srow[4][MAXC];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);

  const int w = warp.meta_group_rank();
  const int r = blockIdx.x * 4 + w;
  const int n = ncols;
  float* grow = rows + (size_t)r * ncols;

  cg::memcpy_async(warp, srow[w], grow, cuda::aligned_size_t<16>(n * sizeof(float)));
  cg::wait(warp);

  float ss = 0.0f;
  for (int i = warp.thread_rank(); i < n; i += 32) {
    ss += srow[w][i] * srow[w][i];
  }
  ss = cg::reduce(warp, ss, cg::plus<float>());
  const float inv = ss > 0.0f ? rsqrtf(ss) : 0.0f;
  for (int i = warp.thread_rank(); i < n; i += 32) {
    grow[i] = srow[w][i] * inv;
  }
}

// ptx_tma.cu: Hopper asynchronous copies through libcu++'s <cuda/ptx> wrappers
// (cuda::ptx::*), for sm_90a only.
//
//   * mbarrier_init, fence_mbarrier_init, fence_proxy_async(space_shared)
//   * mbarrier_arrive, mbarrier_arrive_expect_tx, mbarrier_try_wait (token),
//     mbarrier_try_wait_parity (phase), mbarrier_expect_tx
//   * cp_async_bulk global -> shared::cluster with an mbarrier, shared::cta -> global
//     with cp_async_bulk_commit_group / cp_async_bulk_wait_group_read
//   * cp_async_bulk_tensor 2D load and store with a `const __grid_constant__ CUtensorMap`
//   * cp_reduce_async_bulk (shared -> global add)
//   * st_async and red_async into a peer CTA of a cluster, completing on the peer's mbarrier
//   * elect.sync through cooperative_groups::invoke_one (cuda::ptx has no elect_sync in
//     CUDA 13.0)
//
// All kernels are written to be correct: every mbarrier is initialised and made visible
// before use, every expect_tx byte count equals the bytes of the copies that complete on
// that barrier, every smem buffer written by generic stores is fenced with
// fence.proxy.async before the async proxy reads it, and bulk stores are waited for
// (wait_group_read) before their source is reused or the CTA exits.
#include <cuda.h>  // CUtensorMap
#include <cuda/ptx>
#include <cooperative_groups.h>
#include <cstdint>

namespace ptx = cuda::ptx;
namespace cg = cooperative_groups;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define HAS_SM90 1
#else
#define HAS_SM90 0
#endif

#if HAS_SM90
#define CLUSTER2 __cluster_dims__(2, 1, 1)
#else
#define CLUSTER2
#endif

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

// Spin on a token returned by mbarrier_arrive / mbarrier_arrive_expect_tx.
__device__ __forceinline__ void wait_token(uint64_t* bar, uint64_t token)
{
#if HAS_SM90
  while (!ptx::mbarrier_try_wait(bar, token)) {
  }
#endif
}

// Spin on a phase parity (no token needed, so threads that did not arrive can wait).
__device__ __forceinline__ void wait_parity(uint64_t* bar, uint32_t parity)
{
#if HAS_SM90
  while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, bar, parity)) {
  }
#endif
}

// ---------------------------------------------------------------------------------------
// 1. 1D bulk copy in, scale in shared memory, bulk copy out.
//    One tile of TILE floats per CTA; blockDim.x threads all arrive on the barrier.
// ---------------------------------------------------------------------------------------
constexpr int TILE = 1024;  // floats, 4 KiB

__global__ void __launch_bounds__(256) bulk_scale(const float* __restrict__ in, float* __restrict__ out, float alpha,
                                                  int ntiles)
{
#if HAS_SM90
  __shared__ alignas(128) float tile[TILE];
  __shared__ alignas(8) uint64_t bar;

  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, blockDim.x);
    // make the initialised barrier visible to the async proxy (the bulk copy's complete_tx)
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();

  for (int t = blockIdx.x; t < ntiles; t += gridDim.x) {
    uint64_t token;
    if (threadIdx.x == 0) {
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile, in + (size_t)t * TILE,
                         TILE * sizeof(float), &bar);
      token = ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar,
                                             TILE * sizeof(float));
    } else {
      token = ptx::mbarrier_arrive(&bar);
    }
    wait_token(&bar, token);

    for (int i = threadIdx.x; i < TILE; i += blockDim.x) {
      tile[i] *= alpha;
    }
    // generic-proxy writes to tile must be visible to the bulk store (async proxy)
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();

    if (threadIdx.x == 0) {
      ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + (size_t)t * TILE, tile, TILE * sizeof(float));
      ptx::cp_async_bulk_commit_group();
      // the next iteration's load overwrites tile: wait until the store has read it
      ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
    __syncthreads();
  }
#endif
}

// ---------------------------------------------------------------------------------------
// 2. TMA 2D tile load/store with a tensor map passed as a __grid_constant__ parameter.
//    Each CTA transforms one 32x32 float tile: out = in * in + bias. A single elected
//    thread of warp 0 issues the TMA load; everyone waits on the phase parity.
// ---------------------------------------------------------------------------------------
constexpr int BOX_ROWS = 32;
constexpr int BOX_COLS = 32;
enum : uint32_t { BOX_BYTES = BOX_ROWS * BOX_COLS * sizeof(float) };  // an enumerator: binds to the wrappers' const& by value

__global__ void __launch_bounds__(128) tma_tile_square(const __grid_constant__ CUtensorMap tmap_in,
                                                       const __grid_constant__ CUtensorMap tmap_out, float bias)
{
#if HAS_SM90
  __shared__ alignas(128) float box[BOX_ROWS][BOX_COLS];
  __shared__ alignas(8) uint64_t full;

  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int32_t col0 = blockIdx.x * BOX_COLS;
  const int32_t row0 = blockIdx.y * BOX_ROWS;

  if (block.thread_rank() == 0) {
    ptx::mbarrier_init(&full, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  block.sync();

  if (warp.meta_group_rank() == 0) {
    // elect.sync picks one lane of warp 0 to issue the copy
    cg::invoke_one(warp, [&] {
      const int32_t coords[2] = {col0, row0};  // innermost dimension first
      ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &box[0][0], &tmap_in, coords, &full);
      (void) ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full, BOX_BYTES);
    });
  }
  wait_parity(&full, 0);

  for (int i = block.thread_rank(); i < BOX_ROWS * BOX_COLS; i += block.size()) {
    float v = box[i / BOX_COLS][i % BOX_COLS];
    box[i / BOX_COLS][i % BOX_COLS] = v * v + bias;
  }
  ptx::fence_proxy_async(ptx::space_shared);
  block.sync();

  if (block.thread_rank() == 0) {
    const int32_t coords[2] = {col0, row0};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &tmap_out, coords, &box[0][0]);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
#endif
}

// ---------------------------------------------------------------------------------------
// 3. Multi-stage TMA pipeline with full/empty mbarriers: column sums of a [K x 32] matrix
//    streamed as 32x32 tiles along K. Thread 0 produces, all 128 threads consume.
//    full[s] (count 1) completes when tile k has landed in stage s; empty[s] (count
//    blockDim.x) completes when every thread has finished reading stage s.
// ---------------------------------------------------------------------------------------
constexpr int STAGES = 3;

__global__ void __launch_bounds__(128) tma_pipeline_colsum(const __grid_constant__ CUtensorMap tmap, int ktiles,
                                                           float* __restrict__ colsum)
{
#if HAS_SM90
  __shared__ alignas(128) float stage[STAGES][BOX_ROWS][BOX_COLS];
  __shared__ alignas(8) uint64_t full[STAGES];
  __shared__ alignas(8) uint64_t empty[STAGES];
  __shared__ float partial[4][BOX_COLS];

  const int tid = threadIdx.x;
  const int32_t col0 = blockIdx.x * BOX_COLS;

  if (tid == 0) {
    for (int s = 0; s < STAGES; ++s) {
      ptx::mbarrier_init(&full[s], 1);
      ptx::mbarrier_init(&empty[s], blockDim.x);
    }
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();

  // prologue: fill every stage
  if (tid == 0) {
    for (int k = 0; k < STAGES && k < ktiles; ++k) {
      const int32_t coords[2] = {col0, k * BOX_ROWS};
      ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &full[k], BOX_BYTES);
      ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &stage[k][0][0], &tmap, coords, &full[k]);
      (void) ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[k]);
    }
  }

  const int c = tid % BOX_COLS;   // column this thread sums
  const int r0 = tid / BOX_COLS;  // 4 row groups of 8 rows
  float acc = 0.0f;

  for (int k = 0; k < ktiles; ++k) {
    const int s = k % STAGES;
    const uint32_t phase = (k / STAGES) & 1;
    wait_parity(&full[s], phase);
    for (int r = r0; r < BOX_ROWS; r += 4) {
      acc += stage[s][r][c];
    }
    // release the stage back to the producer
    (void) ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &empty[s]);

    if (tid == 0 && k + STAGES < ktiles) {
      // wait until every consumer is done with stage s, then refill it with tile k+STAGES
      wait_parity(&empty[s], phase);
      const int32_t coords[2] = {col0, (k + STAGES) * BOX_ROWS};
      (void) ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s],
                                            BOX_BYTES);
      ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &stage[s][0][0], &tmap, coords, &full[s]);
    }
  }

  partial[r0][c] = acc;
  __syncthreads();
  if (tid < BOX_COLS) {
    colsum[col0 + tid] = partial[0][tid] + partial[1][tid] + partial[2][tid] + partial[3][tid];
  }
#endif
}

// ---------------------------------------------------------------------------------------
// 4. Bulk reduction into global memory: each CTA builds a 256-bin float histogram in
//    shared memory and adds it to the global one with cp.reduce.async.bulk .add.f32.
// ---------------------------------------------------------------------------------------
constexpr int BINS = 256;

__global__ void __launch_bounds__(256) bulk_reduce_histogram(const uint8_t* __restrict__ data, const float* __restrict__ w,
                                                             int n, float* __restrict__ hist)
{
#if HAS_SM90
  __shared__ alignas(16) float local[BINS];
  for (int i = threadIdx.x; i < BINS; i += blockDim.x) {
    local[i] = 0.0f;
  }
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicAdd(&local[data[i]], w[i]);
  }
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_add, hist, local,
                              (uint32_t)(BINS * sizeof(float)));
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
#endif
}

// ---------------------------------------------------------------------------------------
// 5. Cluster of 2: each CTA writes 128 values into its peer's shared buffer with st.async,
//    and bumps the peer's counters with red.async; both complete_tx on the peer's
//    mbarrier. Each CTA expects 128*4 (st.async) + 128*4 (red.async) bytes.
// ---------------------------------------------------------------------------------------
constexpr int XCH = 128;
enum : uint32_t { XCH_BYTES = XCH * sizeof(uint32_t) + XCH * sizeof(uint32_t) };

__global__ void CLUSTER2 __launch_bounds__(XCH) cluster_exchange(const uint32_t* __restrict__ in,
                                                                 uint32_t* __restrict__ out)
{
#if HAS_SM90
  __shared__ alignas(16) uint32_t inbox[XCH];
  __shared__ alignas(16) uint32_t counters[8];
  __shared__ alignas(8) uint64_t bar;

  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const unsigned peer = rank ^ 1;
  const unsigned tid = threadIdx.x;

  if (tid < 8) {
    counters[tid] = 0;
  }
  if (tid == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    (void) ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, XCH_BYTES);
  }
  // barrier initialisation, expect_tx and zeroed counters become visible cluster-wide
  cluster.sync();

  const size_t gid = (size_t)blockIdx.x * XCH + tid;
  const uint32_t v = in[gid];
  uint32_t* remote_inbox = cluster.map_shared_rank(inbox, peer);
  uint32_t* remote_counters = cluster.map_shared_rank(counters, peer);
  uint64_t* remote_bar = cluster.map_shared_rank(&bar, peer);

  ptx::st_async(remote_inbox + tid, v, remote_bar);
  ptx::red_async(ptx::op_add, remote_counters + (v & 7u), 1u, remote_bar);

  // our own inbox is complete once the peer's 256 transactions have landed
  wait_parity(&bar, 0);
  out[gid] = inbox[tid] + counters[tid & 7u];

  // keep our shared memory alive until the peer is done reading its own
  cluster.sync();
#endif
}

// ---------------------------------------------------------------------------------------
// 6. Cluster of 2, bulk copy into the peer's shared memory (shared::cta -> shared::cluster)
//    completing on the peer's mbarrier: a halo exchange of one row of 64 floats.
// ---------------------------------------------------------------------------------------
constexpr int HALO = 64;

__global__ void CLUSTER2 __launch_bounds__(HALO) cluster_halo(const float* __restrict__ in, float* __restrict__ out)
{
#if HAS_SM90
  __shared__ alignas(128) float mine[HALO];
  __shared__ alignas(128) float theirs[HALO];
  __shared__ alignas(8) uint64_t bar;

  cg::cluster_group cluster = cg::this_cluster();
  const unsigned peer = cluster.block_rank() ^ 1;
  const unsigned tid = threadIdx.x;

  mine[tid] = in[(size_t)blockIdx.x * HALO + tid];
  if (tid == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    (void) ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar,
                                          HALO * sizeof(float));
  }
  // `mine` was written by the generic proxy and is read by the bulk copy
  ptx::fence_proxy_async(ptx::space_shared);
  cluster.sync();

  if (tid == 0) {
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_shared, cluster.map_shared_rank(theirs, peer), mine,
                       HALO * sizeof(float), cluster.map_shared_rank(&bar, peer));
  }
  wait_parity(&bar, 0);
  out[(size_t)blockIdx.x * HALO + tid] = 0.5f * (mine[tid] + theirs[tid]);
  cluster.sync();
#endif
}

// ---------------------------------------------------------------------------------------
// Host side: how the tensor maps for kernels 2 and 3 are built (driver API; not linked
// when compiling with -ptx).
// ---------------------------------------------------------------------------------------
CUresult make_tile_map(CUtensorMap* map, const float* base, uint64_t rows, uint64_t cols)
{
  const cuuint64_t dims[2] = {cols, rows};
  const cuuint64_t strides[1] = {cols * sizeof(float)};
  const cuuint32_t box[2] = {BOX_COLS, BOX_ROWS};
  const cuuint32_t elem_strides[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(base), dims, strides, box,
                                elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

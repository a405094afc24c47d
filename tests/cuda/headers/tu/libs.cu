// Instantiates the inline asm of the toolkit's library headers that are not intrinsic one-liners:
// cooperative_groups, cuda::barrier / cuda::memcpy_async / cuda::pipeline, the cuda_pipeline and
// cuda_awbarrier primitives, cuda::ptx::shfl_sync, cuda::bitfield_*, access properties,
// discard_memory, chrono, sleep, programmatic dependent launch, curand and wmma's tf32 rounding.
// record.py compiles it per device pass and collects the asm nvcc emits.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cuda_awbarrier_primitives.h>
#include <cuda_pipeline_primitives.h>
#include <curand_kernel.h>
#include <mma.h>

#include <cuda/annotated_ptr>
#include <cuda/barrier>
#include <cuda/bit>
#include <cuda/discard_memory>
#include <cuda/pipeline>
#include <cuda/ptx>
#include <cuda/std/atomic>
#include <cuda/std/chrono>
#include <cuda/std/barrier>

namespace cg = cooperative_groups;

template <class T>
__device__ T ld(const unsigned char* b, int slot)
{
  return *reinterpret_cast<const T*>(b + 64 * slot);
}
template <class T>
__device__ void st(unsigned char* o, int slot, const T& v)
{
  *reinterpret_cast<T*>(o + 64 * slot) = v;
}

__global__ void k_cg_grid(unsigned char* b, unsigned char* o)
{
  cg::grid_group grid = cg::this_grid();
  grid.sync();
  st(o, 0, grid.thread_rank());
}

__global__ void k_cg_block(unsigned char* b, unsigned char* o)
{
  cg::thread_block block = cg::this_thread_block();
  block.sync();
  auto tile = cg::tiled_partition<32>(block);
  st(o, 0, tile.thread_rank());
  st(o, 1, cg::reduce(tile, ld<int>(b, 0), cg::plus<int>()));
  if (ld<int>(b, 1))
  {
    cg::coalesced_group active = cg::coalesced_threads();
    st(o, 2, active.thread_rank());
    cg::invoke_one(active, [&] { st(o, 3, 1); });
    st(o, 4, cg::reduce(active, ld<int>(b, 2), cg::plus<int>()));
  }
  auto tile8 = cg::tiled_partition<8>(block);
  cg::invoke_one(tile8, [&] { st(o, 5, 1); });
}

__global__ void k_cg_multi_warp(unsigned char* b, unsigned char* o)
{
  // tiles larger than a warp use the reserved shared scratch (details/memory.h) and sync.h
  __shared__ cg::block_tile_memory<256> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  auto tile = cg::tiled_partition<128>(block);
  tile.sync();
  st(o, 0, tile.thread_rank());
}

__global__ void k_cg_memcpy(unsigned char* b, unsigned char* o)
{
  __shared__ int4 sh[64];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, sh, reinterpret_cast<const int4*>(b), sizeof(sh));
  cg::wait(block);
  st(o, 0, sh[ld<int>(b, 0) & 63]);
}

__global__ void k_barrier(unsigned char* b, unsigned char* o)
{
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int4 sh[64];
  if (threadIdx.x == 0)
  {
    init(&bar, blockDim.x);
  }
  __syncthreads();
  cuda::memcpy_async(sh, reinterpret_cast<const int4*>(b), cuda::aligned_size_t<16>(sizeof(sh)), bar);
  cuda::memcpy_async(sh + 1, reinterpret_cast<const int*>(b) + 1, sizeof(int) * ld<unsigned>(b, 1), bar);
  auto token = bar.arrive();
  bar.wait(cuda::std::move(token));
  bar.arrive_and_wait();
  bar.arrive_and_drop();
  st(o, 1, sh[ld<int>(b, 0) & 63]);
}

__global__ void k_barrier_tx(unsigned char* b, unsigned char* o)
{
#if __CUDA_ARCH__ >= 900
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ alignas(16) int sh[256];
  if (threadIdx.x == 0)
  {
    init(&bar, blockDim.x);
  }
  __syncthreads();
  cuda::device::memcpy_async_tx(sh, reinterpret_cast<const int*>(b), cuda::aligned_size_t<16>(sizeof(sh)), bar);
  cuda::device::barrier_expect_tx(bar, ld<unsigned>(b, 1));
  auto token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(sh));
  bar.wait(cuda::std::move(token));
  st(o, 0, sh[ld<int>(b, 0) & 255]);
#endif
}

__global__ void k_pipeline(unsigned char* b, unsigned char* o)
{
  __shared__ int4 sh[2][32];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  auto block = cg::this_thread_block();
  auto pipe  = cuda::make_pipeline(block, &state);
  pipe.producer_acquire();
  cuda::memcpy_async(block, sh[0], reinterpret_cast<const int4*>(b), cuda::aligned_size_t<16>(sizeof(sh[0])), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  st(o, 0, sh[0][threadIdx.x & 31]);
  pipe.consumer_release();

  auto thread_pipe = cuda::make_pipeline();
  thread_pipe.producer_acquire();
  cuda::memcpy_async(&sh[1][threadIdx.x & 31], reinterpret_cast<const int4*>(b) + 1, sizeof(int4), thread_pipe);
  thread_pipe.producer_commit();
  cuda::pipeline_consumer_wait_prior<0>(thread_pipe);
  st(o, 1, sh[1][threadIdx.x & 31]);
  thread_pipe.consumer_release();
}

__global__ void k_primitives(unsigned char* b, unsigned char* o)
{
  __shared__ int4 sh[32];
  __shared__ __mbarrier_t bar;
  __pipeline_memcpy_async(&sh[threadIdx.x & 31], reinterpret_cast<const int4*>(b), sizeof(int4));
  __pipeline_memcpy_async(&sh[(threadIdx.x + 1) & 31], reinterpret_cast<const int4*>(b) + 1, 8, 8);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __mbarrier_init(&bar, blockDim.x);
  __pipeline_arrive_on(&bar);
  __mbarrier_token_t t = __mbarrier_arrive(&bar);
  while (!__mbarrier_try_wait(&bar, t, 1000))
  {
  }
  st(o, 0, __mbarrier_test_wait(&bar, __mbarrier_arrive_and_drop(&bar)));
  __mbarrier_inval(&bar);
  st(o, 1, sh[threadIdx.x & 31]);
}

__global__ void k_shfl(unsigned char* b, unsigned char* o)
{
  unsigned mask = ld<unsigned>(b, 0);
  int v         = ld<int>(b, 1);
  unsigned lane = ld<unsigned>(b, 2);
  unsigned clmp = ld<unsigned>(b, 4);
  bool pred;
  st(o, 0, cuda::ptx::shfl_sync_idx(v, lane, clmp, mask));
  st(o, 1, cuda::ptx::shfl_sync_up(ld<float>(b, 3), lane, clmp, mask));
  st(o, 2, cuda::ptx::shfl_sync_down(v, lane, clmp, mask));
  st(o, 3, cuda::ptx::shfl_sync_bfly(v, lane, clmp, mask));
  st(o, 4, cuda::ptx::shfl_sync_idx(v, pred, lane, clmp, mask));
  st(o, 5, pred);
  st(o, 6, cuda::ptx::shfl_sync_up(v, pred, lane, clmp, mask));
  st(o, 7, pred);
  st(o, 8, cuda::ptx::shfl_sync_down(v, pred, lane, clmp, mask));
  st(o, 9, pred);
  st(o, 10, cuda::ptx::shfl_sync_bfly(v, pred, lane, clmp, mask));
  st(o, 11, pred);
}

__global__ void k_bitfield(unsigned char* b, unsigned char* o)
{
  int start = ld<int>(b, 0) & 15;
  int width = ld<int>(b, 1) & 15;
  st(o, 0, cuda::bitfield_insert(ld<unsigned>(b, 2), ld<unsigned>(b, 3), start, width));
  st(o, 1, cuda::bitfield_insert(ld<unsigned long long>(b, 2), ld<unsigned long long>(b, 3), start, width));
  st(o, 2, cuda::bitfield_extract(ld<unsigned>(b, 2), start, width));
  st(o, 3, cuda::bitfield_extract(ld<unsigned long long>(b, 2), start, width));
}

__global__ void k_memory_hints(unsigned char* b, unsigned char* o)
{
  size_t n = ld<size_t>(b, 0);
  cuda::apply_access_property(b + 4096, n, cuda::access_property::persisting{});
  cuda::apply_access_property(b + 8192, n, cuda::access_property::normal{});
  cuda::discard_memory(b + 16384, n);
}

__global__ void k_time(unsigned char* b, unsigned char* o)
{
  auto t = cuda::std::chrono::system_clock::now();
  st(o, 0, t.time_since_epoch().count());
  // no public sleep in libcu++: the backoff helper barriers use
  cuda::std::__cccl_thread_sleep_for(cuda::std::chrono::nanoseconds(ld<unsigned>(b, 0)));
  cuda::std::__cccl_thread_yield();
  cuda::std::atomic_signal_fence(cuda::std::memory_order_seq_cst);
}

__global__ void k_atomic_local(unsigned char* b, unsigned char* o)
{
  // an atomic in automatic storage takes the local-memory path (cuda_local.h)
  cuda::std::atomic<int> a(ld<int>(b, 0));
  a.fetch_add(ld<int>(b, 1));
  st(o, 0, a.load());
  struct Padded
  {
    char c;
    int i;
  };
  cuda::std::atomic_ref<Padded> r(*reinterpret_cast<Padded*>(b + 128));
  Padded expected = ld<Padded>(b, 3);
  st(o, 1, r.compare_exchange_strong(expected, ld<Padded>(b, 4)));
}

__global__ void k_pdl(unsigned char* b, unsigned char* o)
{
#if __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
  st(o, 0, ld<int>(b, 0));
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}

__global__ void k_curand(unsigned char* b, unsigned char* o)
{
  curandState s;
  curand_init(ld<unsigned long long>(b, 0), threadIdx.x, 0, &s);
  st(o, 0, curand(&s));
  st(o, 1, curand_poisson(&s, ld<double>(b, 1)));
  curandStatePhilox4_32_10_t p;
  curand_init(ld<unsigned long long>(b, 0), threadIdx.x, 0, &p);
  st(o, 2, curand4(&p));
}

__global__ void k_tf32(unsigned char* b, unsigned char* o)
{
  st(o, 0, nvcuda::wmma::__float_to_tf32(ld<float>(b, 0)));
}

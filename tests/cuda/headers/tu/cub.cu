// Instantiates the inline asm of CUB's device headers for record.py: ThreadLoad/ThreadStore for
// every cache modifier and vector width (function-like macros that stringize the PTX modifier),
// the relaxed/acquire/release loads and stores, the shuffle steps of WarpReduce/WarpScan for each
// operand type, and util_ptx.cuh's helpers.
#include <cub/detail/strong_load.cuh>
#include <cub/detail/strong_store.cuh>
#include <cub/thread/thread_load.cuh>
#include <cub/thread/thread_operators.cuh>
#include <cub/thread/thread_store.cuh>
#include <cub/util_ptx.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>

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

template <cub::CacheLoadModifier M, class T>
__device__ void load_store(unsigned char* b, unsigned char* o, int slot)
{
  st(o, slot, cub::ThreadLoad<M>(reinterpret_cast<T*>(b + 64 * slot)));
}

template <cub::CacheLoadModifier M>
__device__ void loads(unsigned char* b, unsigned char* o)
{
  load_store<M, uint4>(b, o, 0);
  load_store<M, ulonglong2>(b, o, 1);
  load_store<M, ushort4>(b, o, 2);
  load_store<M, uint2>(b, o, 3);
  load_store<M, unsigned long long>(b, o, 4);
  load_store<M, unsigned int>(b, o, 5);
  load_store<M, unsigned short>(b, o, 6);
  load_store<M, unsigned char>(b, o, 7);
}

template <cub::CacheStoreModifier M, class T>
__device__ void store_one(unsigned char* b, unsigned char* o, int slot)
{
  cub::ThreadStore<M>(reinterpret_cast<T*>(o + 64 * slot), ld<T>(b, slot));
}

template <cub::CacheStoreModifier M>
__device__ void stores(unsigned char* b, unsigned char* o)
{
  store_one<M, uint4>(b, o, 0);
  store_one<M, ulonglong2>(b, o, 1);
  store_one<M, ushort4>(b, o, 2);
  store_one<M, uint2>(b, o, 3);
  store_one<M, unsigned long long>(b, o, 4);
  store_one<M, unsigned int>(b, o, 5);
  store_one<M, unsigned short>(b, o, 6);
  store_one<M, unsigned char>(b, o, 7);
}

__global__ void k_thread_load(unsigned char* b, unsigned char* o)
{
  loads<cub::LOAD_CA>(b, o);
  loads<cub::LOAD_CG>(b, o + 1024);
  loads<cub::LOAD_CS>(b, o + 2048);
  loads<cub::LOAD_CV>(b, o + 3072);
  loads<cub::LOAD_LDG>(b, o + 4096);
}

__global__ void k_thread_store(unsigned char* b, unsigned char* o)
{
  stores<cub::STORE_WB>(b, o);
  stores<cub::STORE_CG>(b, o + 1024);
  stores<cub::STORE_CS>(b, o + 2048);
  stores<cub::STORE_WT>(b, o + 3072);
}

template <class T>
__device__ void strong(unsigned char* b, unsigned char* o, int slot)
{
  T* p = reinterpret_cast<T*>(b + 64 * slot);
  st(o, slot, cub::detail::load_relaxed(p));
  cub::detail::store_relaxed(reinterpret_cast<T*>(o + 64 * slot + 32768), ld<T>(b, slot));
  cub::detail::store_release(reinterpret_cast<T*>(o + 64 * slot + 65536), ld<T>(b, slot));
}

__global__ void k_strong(unsigned char* b, unsigned char* o)
{
  strong<uint4>(b, o, 0);
  strong<ulonglong2>(b, o, 1);
  strong<ushort4>(b, o, 2);
  strong<uint2>(b, o, 3);
  strong<unsigned long long>(b, o, 4);
  strong<unsigned int>(b, o, 5);
  strong<unsigned short>(b, o, 6);
  strong<unsigned char>(b, o, 7);
  st(o, 8, cub::detail::load_acquire(reinterpret_cast<uint2*>(b)));
  st(o, 9, cub::detail::load_acquire(reinterpret_cast<ulonglong2*>(b)));
  st(o, 10, cub::detail::load_acquire(reinterpret_cast<unsigned int*>(b)));
}

template <class T>
__device__ void warp(unsigned char* b, unsigned char* o, int slot)
{
  __shared__ typename cub::WarpReduce<T>::TempStorage reduce_storage;
  __shared__ typename cub::WarpScan<T>::TempStorage scan_storage;
  T v = ld<T>(b, slot);
  st(o, slot, cub::WarpReduce<T>(reduce_storage).Sum(v));
  st(o, slot + 1, cub::WarpReduce<T>(reduce_storage).HeadSegmentedSum(v, ld<int>(b, 0) != 0));
  T inclusive, exclusive;
  cub::WarpScan<T>(scan_storage).InclusiveSum(v, inclusive);
  cub::WarpScan<T>(scan_storage).ExclusiveSum(v, exclusive);
  st(o, slot + 2, inclusive);
  st(o, slot + 3, exclusive);
}

__global__ void k_warp(unsigned char* b, unsigned char* o)
{
  warp<int>(b, o, 0);
  warp<unsigned int>(b, o, 4);
  warp<float>(b, o, 8);
  warp<long long>(b, o, 12);
  warp<unsigned long long>(b, o, 16);
  warp<double>(b, o, 20);
}

__global__ void k_util(unsigned char* b, unsigned char* o)
{
  unsigned v = ld<unsigned>(b, 0);
  st(o, 0, cub::BFE(v, ld<unsigned>(b, 1), ld<unsigned>(b, 2)));
  st(o, 1, cub::SHFL_UP_SYNC(v, ld<int>(b, 1), ld<int>(b, 2), ld<unsigned>(b, 3)));
  st(o, 2, cub::SHFL_DOWN_SYNC(v, ld<int>(b, 1), ld<int>(b, 2), ld<unsigned>(b, 3)));
  st(o, 3, cub::MatchAny<8>(v));
  st(o, 4, cub::detail::LogicShiftLeft(v, ld<unsigned>(b, 1)));
  st(o, 5, cub::detail::LogicShiftRight(v, ld<unsigned>(b, 1)));
  st(o, 6, cub::internal::halves2bfloat162(ld<__nv_bfloat16>(b, 4), ld<__nv_bfloat16>(b, 5)));
  if (v == 7)
  {
    cub::ThreadExit();
  }
}

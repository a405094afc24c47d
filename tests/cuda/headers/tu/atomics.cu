// Instantiates the inline asm of libcu++'s atomics (cuda/std/__atomic/functions/
// cuda_ptx_generated.h and cuda_ptx_derived.h) for record.py: every operation, for every operand
// class (b16/b32/b64/b128, u/s/f), every scope (cta, cluster, gpu, sys) and -- because the memory
// order is a run-time value -- every memory-order arm of the dispatch switch.
// The cluster scope has no public cuda::thread_scope, so this file calls the internal
// __atomic_*_cuda entry points with the scope tags directly; cuda::atomic_ref covers the public path.
#include <cstdint>
#include <cuda/atomic>
#include <cuda/std/atomic>

namespace std_ = cuda::std;

struct alignas(16) Pair
{
  std_::uint64_t x, y;
};

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

// load, store, exchange and compare-exchange exist for every operand size
template <class T, class Sco>
__device__ void bitwise_ops(unsigned char* b, unsigned char* o)
{
  T* p      = reinterpret_cast<T*>(b);
  int order = ld<int>(b, 1);
  int fail  = ld<int>(b, 2);
  T v       = ld<T>(b, 3);
  T r;
  std_::__atomic_load_cuda(const_cast<const T*>(p), r, order, Sco{});
  st(o, 0, r);
  std_::__atomic_store_cuda(p, v, order, Sco{});
  std_::__atomic_exchange_cuda(p, r, v, order, Sco{});
  st(o, 1, r);
  T expected = ld<T>(b, 4);
  st(o, 2, std_::__atomic_compare_exchange_cuda(p, &expected, v, false, order, fail, Sco{}));
  st(o, 3, std_::__atomic_compare_exchange_cuda(p, &expected, v, true, order, fail, Sco{}));
  st(o, 4, expected);
  // volatile overloads (the .mmio / volatile forms)
  volatile T* vp = p;
  std_::__atomic_load_cuda(const_cast<const volatile T*>(vp), r, order, Sco{});
  st(o, 5, r);
  std_::__atomic_store_cuda(vp, v, order, Sco{});
}

template <class T, class Sco>
__device__ void arithmetic_ops(unsigned char* b, unsigned char* o)
{
  T* p      = reinterpret_cast<T*>(b);
  int order = ld<int>(b, 1);
  T v       = ld<T>(b, 3);
  st(o, 6, std_::__atomic_fetch_add_cuda(p, v, order, Sco{}));
  st(o, 7, std_::__atomic_fetch_sub_cuda(p, v, order, Sco{}));
  st(o, 8, std_::__atomic_fetch_min_cuda(p, v, order, Sco{}));
  st(o, 9, std_::__atomic_fetch_max_cuda(p, v, order, Sco{}));
}

template <class T, class Sco>
__device__ void integral_ops(unsigned char* b, unsigned char* o)
{
  T* p      = reinterpret_cast<T*>(b);
  int order = ld<int>(b, 1);
  T v       = ld<T>(b, 3);
  st(o, 10, std_::__atomic_fetch_and_cuda(p, v, order, Sco{}));
  st(o, 11, std_::__atomic_fetch_or_cuda(p, v, order, Sco{}));
  st(o, 12, std_::__atomic_fetch_xor_cuda(p, v, order, Sco{}));
}

template <class Sco>
__device__ void fence(unsigned char* b)
{
  std_::__atomic_thread_fence_cuda(ld<int>(b, 1), Sco{});
}

#define SCOPES(X)                           \
  X(block, std_::__thread_scope_block_tag)     \
  X(cluster, std_::__thread_scope_cluster_tag) \
  X(device, std_::__thread_scope_device_tag)   \
  X(system, std_::__thread_scope_system_tag)

#define KERNELS(name, Sco)                                                             \
  __global__ void k_fence_##name(unsigned char* b)                                    \
  {                                                                                    \
    fence<Sco>(b);                                                                     \
  }                                                                                    \
  __global__ void k_u16_##name(unsigned char* b, unsigned char* o)                     \
  {                                                                                    \
    bitwise_ops<std_::uint16_t, Sco>(b, o);                                            \
  }                                                                                    \
  __global__ void k_u32_##name(unsigned char* b, unsigned char* o)                     \
  {                                                                                    \
    bitwise_ops<std_::uint32_t, Sco>(b, o);                                            \
    arithmetic_ops<std_::uint32_t, Sco>(b, o);                                         \
    integral_ops<std_::uint32_t, Sco>(b, o);                                           \
  }                                                                                    \
  __global__ void k_s32_##name(unsigned char* b, unsigned char* o)                     \
  {                                                                                    \
    arithmetic_ops<std_::int32_t, Sco>(b, o);                                          \
  }                                                                                    \
  __global__ void k_f32_##name(unsigned char* b, unsigned char* o)                     \
  {                                                                                    \
    bitwise_ops<float, Sco>(b, o);                                                     \
    arithmetic_ops<float, Sco>(b, o);                                                  \
  }                                                                                    \
  __global__ void k_u64_##name(unsigned char* b, unsigned char* o)                     \
  {                                                                                    \
    bitwise_ops<std_::uint64_t, Sco>(b, o);                                            \
    arithmetic_ops<std_::uint64_t, Sco>(b, o);                                         \
    integral_ops<std_::uint64_t, Sco>(b, o);                                           \
  }                                                                                    \
  __global__ void k_s64_##name(unsigned char* b, unsigned char* o)                     \
  {                                                                                    \
    arithmetic_ops<std_::int64_t, Sco>(b, o);                                          \
  }                                                                                    \
  __global__ void k_f64_##name(unsigned char* b, unsigned char* o)                     \
  {                                                                                    \
    bitwise_ops<double, Sco>(b, o);                                                    \
    arithmetic_ops<double, Sco>(b, o);                                                 \
  }

SCOPES(KERNELS)

// The public path: cuda::atomic_ref and cuda::atomic_thread_fence with constant orders.
template <class T, cuda::thread_scope S>
__device__ void public_ops(unsigned char* b, unsigned char* o)
{
  cuda::atomic_ref<T, S> a(*reinterpret_cast<T*>(b));
  T v = ld<T>(b, 3);
  st(o, 0, a.load(cuda::std::memory_order_acquire));
  a.store(v, cuda::std::memory_order_release);
  st(o, 1, a.fetch_add(v, cuda::std::memory_order_acq_rel));
  st(o, 2, a.fetch_max(v));
  T e = ld<T>(b, 4);
  st(o, 3, a.compare_exchange_strong(e, v, cuda::std::memory_order_relaxed));
  cuda::atomic_thread_fence(cuda::std::memory_order_seq_cst, S);
}

__global__ void k_public(unsigned char* b, unsigned char* o)
{
  public_ops<int, cuda::thread_scope_block>(b, o);
  public_ops<unsigned long long, cuda::thread_scope_device>(b, o);
  public_ops<float, cuda::thread_scope_system>(b, o);
}

// atomics.cu: libcu++ atomics with explicit memory orders and thread scopes.
//
//   * cuda::atomic_ref<T, thread_scope_block> on shared memory, <..._device> and
//     <..._system> on global / host-mapped memory; int, unsigned, 64-bit, float, double
//   * every memory order: relaxed, acquire, release, acq_rel, seq_cst (and consume)
//   * fetch_add/sub/and/or/xor, cuda:: fetch_min/fetch_max, exchange,
//     compare_exchange_strong/weak, load/store, wait/notify_all
//   * cuda::std::atomic<T> and cuda::atomic<T, scope> objects in global memory
//   * cuda::atomic_thread_fence(order, scope) and cuda::std::atomic_thread_fence
//   * patterns: shared/global histogram, "last block" reduction with an acq_rel ticket,
//     a device-scope spin lock held by one thread per block, a device->host doorbell at
//     system scope, a block-scope work queue, a block-level flag with wait/notify
//
// Compiled for sm_80 and sm_90a.
#include <cuda/atomic>
#include <cuda/std/atomic>
#include <cuda/std/cstdint>
#include <climits>

using cuda::memory_order_acq_rel;
using cuda::memory_order_acquire;
using cuda::memory_order_relaxed;
using cuda::memory_order_release;
using cuda::memory_order_seq_cst;

// ---------------------------------------------------------------------------------------
// 1. Histogram: block-scope relaxed increments in shared memory, then device-scope relaxed
//    adds into the global histogram.
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(256) histogram_scoped(const unsigned char* __restrict__ data, int n,
                                                        unsigned* __restrict__ hist)
{
  __shared__ unsigned local[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) {
    local[i] = 0;
  }
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> bin(local[data[i]]);
    bin.fetch_add(1u, memory_order_relaxed);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) {
    const unsigned c = local[i];
    if (c != 0) {
      cuda::atomic_ref<unsigned, cuda::thread_scope_device> g(hist[i]);
      g.fetch_add(c, memory_order_relaxed);
    }
  }
}

// ---------------------------------------------------------------------------------------
// 2. "Last block" reduction: every block publishes its partial sum, then takes a ticket
//    with an acq_rel fetch_add at device scope; the block that draws the last ticket sees
//    all partials and writes the total. The counter is reset for the next launch.
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(256) last_block_sum(const float* __restrict__ in, int n, float* __restrict__ partials,
                                                      unsigned* __restrict__ ticket, float* __restrict__ total)
{
  __shared__ float sh[256];
  __shared__ bool is_last;
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    v += in[i];
  }
  sh[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      sh[threadIdx.x] += sh[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sh[0];
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> t(*ticket);
    // release: our partial is visible to whoever draws the last ticket;
    // acquire: if we are last, we see everyone else's partial
    const unsigned mine = t.fetch_add(1u, memory_order_acq_rel);
    is_last = (mine == gridDim.x - 1);
  }
  __syncthreads();
  if (is_last && threadIdx.x == 0) {
    float s = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b) {
      s += partials[b];
    }
    *total = s;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*ticket).store(0u, memory_order_relaxed);
  }
}

// the same with a standalone fence: relaxed ticket, release fence before, acquire fence after
__global__ void __launch_bounds__(128) last_block_max_fenced(const int* __restrict__ in, int n,
                                                             int* __restrict__ partials, unsigned* __restrict__ ticket,
                                                             int* __restrict__ result)
{
  __shared__ int best;
  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    best = INT_MIN;
  }
  __syncthreads();
  int v = INT_MIN;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    v = max(v, in[i]);
  }
  cuda::atomic_ref<int, cuda::thread_scope_block>(best).fetch_max(v, memory_order_relaxed);
  __syncthreads();
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = best;
    cuda::atomic_thread_fence(memory_order_release, cuda::thread_scope_device);
    const unsigned mine =
      cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*ticket).fetch_add(1u, memory_order_relaxed);
    is_last = (mine == gridDim.x - 1);
    if (is_last) {
      cuda::atomic_thread_fence(memory_order_acquire, cuda::thread_scope_device);
    }
  }
  __syncthreads();
  if (is_last && threadIdx.x == 0) {
    int m = INT_MIN;
    for (unsigned b = 0; b < gridDim.x; ++b) {
      m = max(m, partials[b]);
    }
    *result = m;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*ticket).store(0u, memory_order_relaxed);
  }
}

// ---------------------------------------------------------------------------------------
// 3. Device-scope spin lock (one thread per block takes it) protecting a small global
//    record: the best (score, index) pair seen by any block.
// ---------------------------------------------------------------------------------------
struct Best {
  float score;
  int index;
};

__device__ void lock(int* l)
{
  cuda::atomic_ref<int, cuda::thread_scope_device> a(*l);
  int expected = 0;
  while (!a.compare_exchange_strong(expected, 1, memory_order_acquire, memory_order_relaxed)) {
    expected = 0;
    // wait for the lock to look free before retrying the CAS
    while (a.load(memory_order_relaxed) != 0) {
      __nanosleep(64);
    }
  }
}

__device__ void unlock(int* l)
{
  cuda::atomic_ref<int, cuda::thread_scope_device>(*l).store(0, memory_order_release);
}

__global__ void __launch_bounds__(256) best_under_lock(const float* __restrict__ scores, int n, int* __restrict__ mutex,
                                                       Best* __restrict__ best)
{
  __shared__ float sh_score[256];
  __shared__ int sh_index[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  sh_score[threadIdx.x] = i < n ? scores[i] : -INFINITY;
  sh_index[threadIdx.x] = i;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s && sh_score[threadIdx.x + s] > sh_score[threadIdx.x]) {
      sh_score[threadIdx.x] = sh_score[threadIdx.x + s];
      sh_index[threadIdx.x] = sh_index[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    lock(mutex);
    if (sh_score[0] > best->score) {
      best->score = sh_score[0];
      best->index = sh_index[0];
    }
    unlock(mutex);
  }
}

// ---------------------------------------------------------------------------------------
// 4. cuda::std::atomic / cuda::atomic objects in global memory: statistics of a vector.
// ---------------------------------------------------------------------------------------
struct Stats {
  cuda::std::atomic<unsigned long long> count;
  cuda::atomic<float, cuda::thread_scope_device> sum;
  cuda::atomic<int, cuda::thread_scope_device> min;
  cuda::atomic<int, cuda::thread_scope_device> max;
  cuda::std::atomic<unsigned> seen_bits;   // OR of all values
  cuda::std::atomic<unsigned> parity;      // XOR of all values
  cuda::std::atomic<unsigned> common_bits; // AND of all values
  cuda::atomic<double, cuda::thread_scope_device> sum_sq;
  cuda::std::atomic<long long> balance;
};

__global__ void __launch_bounds__(256) vector_stats(const int* __restrict__ v, int n, Stats* stats)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
    return;
  }
  const int x = v[i];
  stats->count.fetch_add(1ull, cuda::std::memory_order_relaxed);
  stats->sum.fetch_add((float)x, memory_order_relaxed);
  stats->min.fetch_min(x, memory_order_relaxed);
  stats->max.fetch_max(x, memory_order_relaxed);
  stats->seen_bits.fetch_or((unsigned)x, cuda::std::memory_order_relaxed);
  stats->parity.fetch_xor((unsigned)x, cuda::std::memory_order_relaxed);
  stats->common_bits.fetch_and((unsigned)x, cuda::std::memory_order_relaxed);
  stats->sum_sq.fetch_add((double)x * x, memory_order_relaxed);
  if (x >= 0) {
    stats->balance.fetch_add(x);  // seq_cst (default)
  } else {
    stats->balance.fetch_sub(-(long long)x, cuda::std::memory_order_seq_cst);
  }
}

// float maximum with a compare_exchange_weak loop on a system-default cuda::std::atomic
__global__ void __launch_bounds__(256) float_max_cas(const float* __restrict__ v, int n,
                                                     cuda::std::atomic<float>* result)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
    return;
  }
  const float x = v[i];
  float cur = result->load(cuda::std::memory_order_relaxed);
  while (x > cur && !result->compare_exchange_weak(cur, x, cuda::std::memory_order_relaxed)) {
  }
}

// ---------------------------------------------------------------------------------------
// 5. System scope: a device->host doorbell in host-mapped memory. Each block publishes a
//    result, then bumps a system-scope counter with release; the host polls it with
//    acquire loads. The kernel also stops early if the host sets `cancel`.
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(128) doorbell_system(const float* __restrict__ work, int per_block,
                                                       float* __restrict__ host_results, unsigned* host_done,
                                                       const int* host_cancel)
{
  __shared__ float sh[128];
  __shared__ bool cancelled;
  if (threadIdx.x == 0) {
    cuda::atomic_ref<const int, cuda::thread_scope_system> cancel(*host_cancel);
    cancelled = cancel.load(memory_order_acquire) != 0;
  }
  __syncthreads();
  if (cancelled) {
    return;
  }
  float v = 0.0f;
  for (int i = threadIdx.x; i < per_block; i += blockDim.x) {
    v += work[(size_t)blockIdx.x * per_block + i];
  }
  sh[threadIdx.x] = v;
  __syncthreads();
  for (int s = 64; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      sh[threadIdx.x] += sh[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    host_results[blockIdx.x] = sh[0];
    cuda::atomic_thread_fence(memory_order_seq_cst, cuda::thread_scope_system);
    cuda::atomic_ref<unsigned, cuda::thread_scope_system> done(*host_done);
    done.fetch_add(1u, memory_order_release);
  }
}

// ---------------------------------------------------------------------------------------
// 6. Block-scope work queue: warps grab chunks of a per-block range with a relaxed
//    block-scope fetch_add on a shared counter (an exchange resets it for reuse).
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(256) block_work_queue(const float* __restrict__ in, float* __restrict__ out,
                                                        int per_block)
{
  __shared__ int next;
  __shared__ int grabbed_total;
  if (threadIdx.x == 0) {
    next = 0;
    grabbed_total = 0;
  }
  __syncthreads();
  cuda::atomic_ref<int, cuda::thread_scope_block> q(next);
  const int lane = threadIdx.x % 32;
  const size_t base = (size_t)blockIdx.x * per_block;
  int grabbed = 0;
  for (;;) {
    int chunk = 0;
    if (lane == 0) {
      chunk = q.fetch_add(32, memory_order_relaxed);
    }
    chunk = __shfl_sync(0xffffffffu, chunk, 0);
    if (chunk >= per_block) {
      break;
    }
    const int i = chunk + lane;
    if (i < per_block) {
      out[base + i] = 2.0f * in[base + i] + 1.0f;
      ++grabbed;
    }
  }
  cuda::atomic_ref<int, cuda::thread_scope_block>(grabbed_total).fetch_add(grabbed, memory_order_relaxed);
  __syncthreads();
  if (threadIdx.x == 0) {
    // reset the queue for reuse; record whether every element was processed exactly once
    const int handed_out = q.exchange(0, memory_order_relaxed);
    const bool complete = grabbed_total == per_block && handed_out >= per_block;
    out[(size_t)gridDim.x * per_block + blockIdx.x] = complete ? 1.0f : 0.0f;
  }
}

// ---------------------------------------------------------------------------------------
// 7. Block-level flag with wait/notify: warp 0 computes a scale factor, publishes it with
//    a release store and notify_all; the other warps wait (acquire) for the flag.
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(256) wait_notify_scale(const float* __restrict__ in, float* __restrict__ out, int n)
{
  __shared__ float scale;
  __shared__ int ready;
  if (threadIdx.x == 0) {
    ready = 0;
  }
  __syncthreads();
  cuda::atomic_ref<int, cuda::thread_scope_block> flag(ready);
  if (threadIdx.x < 32) {
    float m = 0.0f;
    for (int i = threadIdx.x; i < n; i += 32) {
      m = fmaxf(m, fabsf(in[i]));
    }
    for (int off = 16; off > 0; off >>= 1) {
      m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
    }
    if (threadIdx.x == 0) {
      scale = m > 0.0f ? 1.0f / m : 1.0f;
      flag.store(1, memory_order_release);
      flag.notify_all();
    }
  }
  flag.wait(0, memory_order_acquire);
  const float s = scale;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    out[i] = in[i] * s;
  }
}

// ---------------------------------------------------------------------------------------
// 8. Seqlock-style snapshot: a writer block updates a pair under a version counter with
//    release/acquire at device scope and seq_cst fences; readers retry until they see an
//    even, unchanged version. Each thread reads with relaxed atomic loads.
// ---------------------------------------------------------------------------------------
struct Pair {
  unsigned version;
  float a;
  float b;
};

__global__ void __launch_bounds__(64) seqlock_update(Pair* p, float a, float b)
{
  if (blockIdx.x != 0 || threadIdx.x != 0) {
    return;
  }
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> ver(p->version);
  const unsigned v0 = ver.load(memory_order_relaxed);
  ver.store(v0 + 1, memory_order_relaxed);
  cuda::atomic_thread_fence(memory_order_release, cuda::thread_scope_device);
  cuda::atomic_ref<float, cuda::thread_scope_device>(p->a).store(a, memory_order_relaxed);
  cuda::atomic_ref<float, cuda::thread_scope_device>(p->b).store(b, memory_order_relaxed);
  ver.store(v0 + 2, memory_order_release);
}

__global__ void __launch_bounds__(64) seqlock_read(Pair* p, float* __restrict__ out, int max_tries)
{
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> ver(p->version);
  cuda::atomic_ref<float, cuda::thread_scope_device> ra(p->a);
  cuda::atomic_ref<float, cuda::thread_scope_device> rb(p->b);
  float a = 0.0f, b = 0.0f;
  bool ok = false;
  for (int t = 0; t < max_tries && !ok; ++t) {
    const unsigned v1 = ver.load(memory_order_acquire);
    if (v1 & 1u) {
      continue;
    }
    a = ra.load(memory_order_relaxed);
    b = rb.load(memory_order_relaxed);
    cuda::atomic_thread_fence(memory_order_acquire, cuda::thread_scope_device);
    ok = ver.load(memory_order_relaxed) == v1;
  }
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  out[gid] = ok ? a + b : NAN;
}

// ---------------------------------------------------------------------------------------
// 9. Every memory order on one counter, plus the cuda::std fences (system scope by
//    default) and a block-scope seq_cst fence.
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(32) memory_orders(unsigned* counter, unsigned* out)
{
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> c(*counter);
  unsigned r = 0;
  r += c.fetch_add(1u, cuda::std::memory_order_relaxed);
  r += c.fetch_add(1u, cuda::std::memory_order_consume);
  r += c.fetch_add(1u, cuda::std::memory_order_acquire);
  r += c.fetch_add(1u, cuda::std::memory_order_release);
  r += c.fetch_add(1u, cuda::std::memory_order_acq_rel);
  r += c.fetch_add(1u, cuda::std::memory_order_seq_cst);
  r += c.load(cuda::std::memory_order_seq_cst);
  cuda::std::atomic_thread_fence(cuda::std::memory_order_seq_cst);
  cuda::atomic_thread_fence(memory_order_seq_cst, cuda::thread_scope_block);
  cuda::atomic_thread_fence(memory_order_acq_rel, cuda::thread_scope_device);
  cuda::std::atomic_signal_fence(cuda::std::memory_order_seq_cst);
  r += c.exchange(r, cuda::std::memory_order_acq_rel);
  out[blockIdx.x * 32 + threadIdx.x] = r;
}

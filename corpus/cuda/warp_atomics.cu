// warp_atomics.cu -- part of the ptxls PTX corpus (original code, written for ptxls).
//
// Warp-synchronous primitives and atomics:
//   * shuffle reductions (__shfl_down_sync, __shfl_xor_sync, __shfl_sync, __shfl_up_sync)
//   * votes: __ballot_sync, __any_sync, __all_sync, __activemask, __match_any_sync
//   * __reduce_add_sync / __reduce_max_sync (redux.sync, sm_80+)
//   * atomicAdd on float / double / unsigned long long, atomicCAS loops for float max and
//     a double multiply, atomicInc, atomicExch, atomicMin/Max, atomicOr, shared-memory
//     histogram atomics, system/block scoped atomics, __threadfence "last block" pattern
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(FULL_MASK, v, off);
    return v;
}

__device__ __forceinline__ double warp_sum_xor(double v)
{
#pragma unroll
    for (int m = 1; m < 32; m <<= 1)
        v += __shfl_xor_sync(FULL_MASK, v, m);
    return v;
}

__device__ __forceinline__ int warp_inclusive_scan(int v)
{
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        int n = __shfl_up_sync(FULL_MASK, v, d);
        if (lane >= d)
            v += n;
    }
    return v;
}

// float max via compare-and-swap on the bit pattern
__device__ float atomic_max_float(float *addr, float value)
{
    int *iaddr = reinterpret_cast<int *>(addr);
    int old = *iaddr, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= value)
            break;
        old = atomicCAS(iaddr, assumed, __float_as_int(value));
    } while (assumed != old);
    return __int_as_float(old);
}

// double multiply via 64-bit compare-and-swap
__device__ double atomic_mul_double(double *addr, double factor)
{
    unsigned long long *p = reinterpret_cast<unsigned long long *>(addr);
    unsigned long long old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, __double_as_longlong(__longlong_as_double(assumed) * factor));
    } while (assumed != old);
    return __longlong_as_double(old);
}

// ---------------------------------------------------------------------------
// Block reduction into global float and double accumulators, plus max via CAS.
// ---------------------------------------------------------------------------
extern "C" __global__ void reduce_stats(const float *__restrict__ in, int n,
                                        float *sum_f, double *sum_sq, float *max_out,
                                        unsigned long long *count_pos)
{
    __shared__ float warp_partials[32];
    __shared__ double warp_sq[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

    float s = 0.0f, m = -3.402823466e38f;
    double sq = 0.0;
    unsigned positives = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float v = in[i];
        s += v;
        sq += (double)v * v;
        m = fmaxf(m, v);
        // count positives in this warp iteration with a ballot
        unsigned active = __activemask();
        unsigned ballot = __ballot_sync(active, v > 0.0f);
        if (lane == __ffs(active) - 1)
            positives += __popc(ballot);
    }
    s = warp_sum(s);
    sq = warp_sum_xor(sq);
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        m = fmaxf(m, __shfl_xor_sync(FULL_MASK, m, off));
    if (lane == 0) {
        warp_partials[warp] = s;
        warp_sq[warp] = sq;
    }
    if (positives)
        atomicAdd(count_pos, (unsigned long long)positives);
    __syncthreads();
    if (warp == 0) {
        const int nwarps = (blockDim.x + 31) >> 5;
        s = lane < nwarps ? warp_partials[lane] : 0.0f;
        sq = lane < nwarps ? warp_sq[lane] : 0.0;
        s = warp_sum(s);
        sq = warp_sum_xor(sq);
        if (lane == 0) {
            atomicAdd(sum_f, s);
            atomicAdd(sum_sq, sq);
        }
    }
    if (lane == 0)
        atomic_max_float(max_out, m);
}

// ---------------------------------------------------------------------------
// Shared-memory histogram with warp aggregation via __match_any_sync.
// ---------------------------------------------------------------------------
extern "C" __global__ void histogram256(const unsigned char *__restrict__ data, int n,
                                        unsigned int *__restrict__ hist)
{
    __shared__ unsigned int local[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        local[i] = 0;
    __syncthreads();
    const int lane = threadIdx.x & 31;
    for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
        int i = base + threadIdx.x;
        bool valid = i < n;
        unsigned mask = __ballot_sync(FULL_MASK, valid);
        if (valid) {
            unsigned bin = data[i];
            unsigned peers = __match_any_sync(mask, bin);
            int leader = __ffs(peers) - 1;
            if (lane == leader)
                atomicAdd(&local[bin], (unsigned)__popc(peers));
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        if (local[i])
            atomicAdd(&hist[i], local[i]);
}

// ---------------------------------------------------------------------------
// Stream compaction: warp-level ballot prefix + one atomic per warp.
// ---------------------------------------------------------------------------
extern "C" __global__ void compact_positive(const int *__restrict__ in, int n,
                                            int *__restrict__ out, int *__restrict__ out_count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x & 31;
    int v = i < n ? in[i] : 0;
    bool keep = i < n && v > 0;
    unsigned ballot = __ballot_sync(FULL_MASK, keep);
    int warp_total = __popc(ballot);
    int rank = __popc(ballot & ((1u << lane) - 1u));
    int base = 0;
    if (lane == 0 && warp_total)
        base = atomicAdd(out_count, warp_total);
    base = __shfl_sync(FULL_MASK, base, 0);
    if (keep)
        out[base + rank] = v;
    // sanity: all lanes agree on the total
    if (!__all_sync(FULL_MASK, __shfl_sync(FULL_MASK, warp_total, 31) == warp_total))
        __trap();
}

// ---------------------------------------------------------------------------
// Misc atomics, scoped atomics, redux.sync and the "last block done" pattern.
// ---------------------------------------------------------------------------
__device__ unsigned int g_blocks_done;

extern "C" __global__ void atomics_zoo(int *ints, unsigned *uints, float *floats,
                                       double *doubles, int *scan_out, float *final_out)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x & 31;

    atomicMin(&ints[0], tid);
    atomicMax(&ints[1], tid);
    atomicOr(&ints[2], 1 << (tid & 31));
    atomicAnd(&ints[3], ~(1 << (tid & 31)));
    atomicXor(&ints[4], tid);
    atomicSub(&ints[5], 1);
    int prev = atomicExch(&ints[6], tid);
    atomicInc(&uints[0], 1023u);
    atomicDec(&uints[1], 1023u);
    atomicAdd_block(&floats[1], 1.0f);
    atomicAdd_system(&floats[2], 0.5f);
    atomicExch(&floats[3], (float)prev);
    atomic_mul_double(&doubles[0], 1.0001);

    int scanned = warp_inclusive_scan(tid & 7);
    scan_out[tid] = scanned;

#if __CUDA_ARCH__ >= 800
    unsigned total = __reduce_add_sync(FULL_MASK, (unsigned)(tid & 7));
    unsigned hi = __reduce_max_sync(FULL_MASK, (unsigned)tid);
    int lo = __reduce_min_sync(FULL_MASK, -tid);
    if (lane == 0)
        atomicAdd(&uints[2], total + hi + (unsigned)lo);
#else
    if (lane == 0)
        atomicAdd(&uints[2], (unsigned)__shfl_sync(FULL_MASK, scanned, 31));
#endif

    if (__any_sync(FULL_MASK, prev < 0) && lane == 0)
        atomicAdd(&doubles[1], 1.0);

    // last block to finish folds the per-block floats into final_out
    __shared__ bool am_last;
    __threadfence();
    if (threadIdx.x == 0) {
        unsigned ticket = atomicAdd(&g_blocks_done, 1u);
        am_last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (am_last && threadIdx.x == 0) {
        volatile float *vf = floats;
        *final_out = vf[0] + vf[1] + vf[2] + vf[3];
        g_blocks_done = 0;
    }
}

// coop_control.cu -- part of the ptxls PTX corpus (original code, written for ptxls).
//
// Cooperative groups and control-flow-heavy PTX:
//   * cooperative_groups: thread_block_tile<32/4>, cg::reduce, cg::inclusive_scan /
//     exclusive_scan, coalesced_threads(), labeled_partition, grid_group::sync()
//   * block barriers with reductions (__syncthreads_count/_and/_or -> bar.red),
//     named barriers (bar.sync id, count via inline asm), __syncwarp with a mask
//   * bitonic sort in shared memory, a switch-based byte-code interpreter (jump tables /
//     branch chains), goto, local arrays with dynamic indexing (.local)
//   * cache-hint loads/stores (__ldcg, __ldcs, __ldlu, __ldcv, __stcs, __stwt), volatile,
//     __nanosleep, clock64, %globaltimer, assert (__assertfail), device malloc/free, __trap
#include <cassert>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

// ---------------------------------------------------------------------------
// 1. Tile-level reductions and scans
// ---------------------------------------------------------------------------
extern "C" __global__ void tile_scan_reduce(const int *__restrict__ in, int *__restrict__ scan_out,
                                            int *__restrict__ sums, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<4> quad = cg::tiled_partition<4>(warp);
    __shared__ int warp_totals[32];

    const int i = block.group_index().x * block.size() + block.thread_rank();
    int v = i < n ? in[i] : 0;
    int incl = cg::inclusive_scan(warp, v);
    int quad_max = cg::reduce(quad, v, cg::greater<int>());
    if (warp.thread_rank() == warp.size() - 1)
        warp_totals[warp.meta_group_rank()] = incl;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        int t = warp.thread_rank() < warp.meta_group_size() ? warp_totals[warp.thread_rank()] : 0;
        int excl = cg::exclusive_scan(warp, t);
        if (warp.thread_rank() < warp.meta_group_size())
            warp_totals[warp.thread_rank()] = excl;
        int total = cg::reduce(warp, t, cg::plus<int>());
        if (warp.thread_rank() == 0)
            sums[block.group_index().x] = total;
    }
    block.sync();
    if (i < n)
        scan_out[i] = incl + warp_totals[warp.meta_group_rank()] + (quad_max & 0);
}

// coalesced groups and labeled partitions from divergent code
extern "C" __global__ void divergent_groups(const int *__restrict__ keys, int *__restrict__ out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const int key = keys[i];
    if (key & 1) {
        cg::coalesced_group odd = cg::coalesced_threads();
        int rank = odd.thread_rank();
        int leader_key = odd.shfl(key, 0);
        out[i] = rank * 1000 + (leader_key & 0xff) + (int)odd.size();
    } else {
        cg::coalesced_group even = cg::coalesced_threads();
        cg::coalesced_group same = cg::labeled_partition(even, key & 0xf);
        int s = cg::reduce(same, 1, cg::plus<int>());
        out[i] = -s;
    }
}

// ---------------------------------------------------------------------------
// 2. Grid-wide sync (cooperative launch): two-phase normalisation
// ---------------------------------------------------------------------------
extern "C" __global__ void grid_normalise(float *__restrict__ data, float *__restrict__ block_max,
                                          int n)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ float smax;
    if (block.thread_rank() == 0)
        smax = 0.0f;
    block.sync();
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        atomicMax(reinterpret_cast<int *>(&smax), __float_as_int(fabsf(data[i])));
    block.sync();
    if (block.thread_rank() == 0)
        block_max[blockIdx.x] = smax;
    grid.sync();
    float m = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b)
        m = fmaxf(m, __ldcg(&block_max[b]));
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        data[i] = m > 0.0f ? data[i] / m : 0.0f;
}

// ---------------------------------------------------------------------------
// 3. Bitonic sort of 1024 keys per block in shared memory; barrier reductions
// ---------------------------------------------------------------------------
extern "C" __global__ void bitonic_sort_1024(unsigned *__restrict__ keys, int *__restrict__ stats)
{
    __shared__ unsigned s[1024];
    const unsigned t = threadIdx.x; // blockDim.x == 512, two keys per thread
    unsigned *base = keys + blockIdx.x * 1024;
    s[t] = base[t];
    s[t + 512] = base[t + 512];
    __syncthreads();
    for (unsigned size = 2; size <= 1024; size <<= 1) {
        for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
            unsigned pos = 2 * t - (t & (stride - 1));
            bool up = ((pos & size) == 0);
            unsigned a = s[pos], b = s[pos + stride];
            if ((a > b) == up) {
                s[pos] = b;
                s[pos + stride] = a;
            }
            __syncthreads();
        }
    }
    int sorted_pairs = __syncthreads_count(s[t] <= s[t + 1]);
    int all_even = __syncthreads_and((s[t] & 1u) == 0);
    int any_zero = __syncthreads_or(s[t] == 0);
    base[t] = s[t];
    base[t + 512] = s[t + 512];
    if (t == 0) {
        stats[3 * blockIdx.x + 0] = sorted_pairs;
        stats[3 * blockIdx.x + 1] = all_even;
        stats[3 * blockIdx.x + 2] = any_zero;
    }
}

// producer/consumer warps synchronised with named barriers (ids 1 and 2), 128 threads
extern "C" __global__ void named_barriers(const float *__restrict__ in, float *__restrict__ out, int rounds)
{
    __shared__ float buf[64];
    const int t = threadIdx.x;
    const bool producer = t < 64;
    for (int r = 0; r < rounds; ++r) {
        if (producer) {
            buf[t] = in[r * 64 + t] * 2.0f;
            __threadfence_block();
            asm volatile("bar.arrive 1, 128;" ::: "memory");
            asm volatile("bar.sync 2, 128;" ::: "memory");
        } else {
            asm volatile("bar.sync 1, 128;" ::: "memory");
            out[r * 64 + (t - 64)] = buf[t - 64] + 1.0f;
            asm volatile("bar.arrive 2, 128;" ::: "memory");
        }
    }
    unsigned lowhalf = 0x0000ffffu;
    if ((t & 31) < 16) {
        __syncwarp(lowhalf);
        out[rounds * 64 + t] = (float)__shfl_sync(lowhalf, t, 3);
    }
}

// ---------------------------------------------------------------------------
// 4. A tiny stack-machine interpreter: switch dispatch, goto, local stack
// ---------------------------------------------------------------------------
enum Op : unsigned char { PUSH, ADD, SUB, MUL, DIV, DUP, SWAP, JZ, JMP, NEG, MIN, MAX, HALT };

__device__ __noinline__ int interpret(const unsigned char *code, int len, int arg)
{
    int stack[16];
    int sp = 0, pc = 0, steps = 0;
    stack[sp++] = arg;
next:
    if (pc >= len || ++steps > 256)
        goto done;
    switch ((Op)code[pc]) {
    case PUSH:
        stack[sp++ & 15] = (signed char)code[pc + 1];
        pc += 2;
        goto next;
    case ADD: --sp; stack[(sp - 1) & 15] += stack[sp & 15]; break;
    case SUB: --sp; stack[(sp - 1) & 15] -= stack[sp & 15]; break;
    case MUL: --sp; stack[(sp - 1) & 15] *= stack[sp & 15]; break;
    case DIV: {
        --sp;
        int d = stack[sp & 15];
        stack[(sp - 1) & 15] = d ? stack[(sp - 1) & 15] / d : 0;
        break;
    }
    case DUP: stack[sp & 15] = stack[(sp - 1) & 15]; ++sp; break;
    case SWAP: {
        int a = stack[(sp - 1) & 15];
        stack[(sp - 1) & 15] = stack[(sp - 2) & 15];
        stack[(sp - 2) & 15] = a;
        break;
    }
    case JZ:
        if (stack[(--sp) & 15] == 0) {
            pc = code[pc + 1];
            goto next;
        }
        pc += 2;
        goto next;
    case JMP: pc = code[pc + 1]; goto next;
    case NEG: stack[(sp - 1) & 15] = -stack[(sp - 1) & 15]; break;
    case MIN: --sp; stack[(sp - 1) & 15] = min(stack[(sp - 1) & 15], stack[sp & 15]); break;
    case MAX: --sp; stack[(sp - 1) & 15] = max(stack[(sp - 1) & 15], stack[sp & 15]); break;
    case HALT: goto done;
    default: __trap();
    }
    ++pc;
    goto next;
done:
    return sp > 0 ? stack[(sp - 1) & 15] : 0;
}

extern "C" __global__ void run_interpreter(const unsigned char *__restrict__ code, int len,
                                           const int *__restrict__ args, int *__restrict__ results, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        results[i] = interpret(code, len, args[i]);
}

// ---------------------------------------------------------------------------
// 5. Cache hints, timers, assert, device heap
// ---------------------------------------------------------------------------
extern "C" __global__ void hints_and_heap(const float *__restrict__ a, float *__restrict__ b,
                                          volatile int *flag, long long *times, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(n > 0);
    long long t0 = clock64();
    unsigned long long gt0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt0));
    if (i < n) {
        float x = __ldcg(a + i) + __ldcs(a + (i ^ 1) % n) + __ldlu(a + (i + 7) % n) + __ldcv(a + (i + 3) % n);
        __stcs(b + i, x);
        __stwt(b + n + i, x * 0.5f);
        __stcg(b + 2 * n + i, __ldca(a + i));
    }
    if (i == 0) {
        int spins = 0;
        while (*flag == 0 && spins++ < 1000)
            __nanosleep(100);
    }
    if (threadIdx.x == 0) {
        int *scratch = static_cast<int *>(malloc(64 * sizeof(int)));
        if (scratch) {
            for (int k = 0; k < 64; ++k)
                scratch[k] = k * blockIdx.x;
            int s = 0;
            for (int k = 0; k < 64; k += 3)
                s += scratch[k];
            b[3 * n + blockIdx.x] = (float)s;
            free(scratch);
        }
        unsigned long long gt1;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt1));
        times[2 * blockIdx.x] = clock64() - t0;
        times[2 * blockIdx.x + 1] = (long long)(gt1 - gt0);
    }
}

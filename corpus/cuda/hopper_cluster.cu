// hopper_cluster.cu -- part of the ptxls PTX corpus (original code, written for ptxls).
//
// Hopper/Blackwell features, each guarded so the file still compiles for sm_75..sm_89:
//   * thread-block clusters: __cluster_dims__ (.reqnctapercluster), cooperative_groups
//     cluster.sync() (barrier.cluster), distributed shared memory via map_shared_rank (mapa),
//     %cluster_ctarank / %clusterid read through inline asm
//   * mbarrier via inline PTX: mbarrier.init / arrive / arrive.expect_tx / try_wait.parity
//     (brace-scoped labels inside asm, inlined more than once), fence.proxy.async,
//     fence.mbarrier_init, cp.async.bulk (TMA bulk copy) global<->shared
//   * elect.sync, griddepcontrol (programmatic dependent launch)
//   * sm_90a only: wgmma.fence / wgmma.mma_async / commit_group / wait_group
//   * sm_90a/sm_100a: setmaxnreg;  sm_100a only: tcgen05.alloc / dealloc / relinquish
//   * sm_80..sm_89: the mbarrier path uses the Ampere forms (arrive + test_wait)
#include <cooperative_groups.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define HAS_SM90 1
#else
#define HAS_SM90 0
#endif

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define HAS_SM90A 1
#else
#define HAS_SM90A 0
#endif

#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
#define HAS_SM100A 1
#else
#define HAS_SM100A 0
#endif

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// ---------------------------------------------------------------------------
// mbarrier helpers (inline PTX)
// ---------------------------------------------------------------------------
__device__ __forceinline__ void mbar_init(unsigned long long *bar, unsigned count)
{
#if __CUDA_ARCH__ >= 800
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
#else
    *bar = count;
#endif
}

__device__ __forceinline__ unsigned long long mbar_arrive(unsigned long long *bar)
{
    unsigned long long state = 0;
#if __CUDA_ARCH__ >= 800
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(smem_addr(bar)) : "memory");
#endif
    return state;
}

// Spin on try_wait.parity with brace-scoped labels; this is inlined several times into the
// same kernel, so the PTX contains the same label names in sibling { } blocks.
__device__ __forceinline__ void mbar_wait_parity(unsigned long long *bar, unsigned parity)
{
#if HAS_SM90
    asm volatile("{\n\t"
                 ".reg .pred ready;\n"
                 "WAIT_LOOP:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 ready, [%0], %1;\n\t"
                 "@!ready bra WAIT_LOOP;\n"
                 "}\n" ::"r"(smem_addr(bar)),
                 "r"(parity)
                 : "memory");
#elif __CUDA_ARCH__ >= 800
    (void)parity;
    (void)bar;
#endif
}

// Ampere-style wait on the state token returned by arrive (C++ loop around test_wait)
__device__ __forceinline__ void mbar_wait_token(unsigned long long *bar, unsigned long long token)
{
#if __CUDA_ARCH__ >= 800
    unsigned done;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.test_wait.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done)
                     : "r"(smem_addr(bar)), "l"(token)
                     : "memory");
    } while (!done);
#else
    (void)bar;
    (void)token;
#endif
}

__device__ __forceinline__ bool elect_one()
{
#if HAS_SM90
    unsigned pred;
    asm volatile("{\n\t.reg .b32 lane;\n\t.reg .pred p;\n\t"
                 "elect.sync lane|p, %1;\n\t"
                 "selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(pred)
                 : "r"(0xffffffffu));
    return pred != 0;
#else
    return (threadIdx.x & 31) == 0;
#endif
}

// ---------------------------------------------------------------------------
// 1. TMA bulk copy into shared memory, completion through an mbarrier transaction count,
//    scale in shared memory, bulk copy back out.
//    blockDim.x == 128; one tile = 4096 bytes (1024 floats).
// ---------------------------------------------------------------------------
constexpr int TILE_FLOATS = 1024;

extern "C" __global__ void __launch_bounds__(128)
bulk_copy_scale(const float *__restrict__ in, float *__restrict__ out, int ntiles, float s)
{
    __shared__ __align__(128) float tile[TILE_FLOATS];
    __shared__ __align__(8) unsigned long long bar;

    if (threadIdx.x == 0) {
        mbar_init(&bar, 1);
#if HAS_SM90
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
    }
    __syncthreads();

    for (int t = blockIdx.x; t < ntiles; t += gridDim.x) {
        const float *src = in + (size_t)t * TILE_FLOATS;
        float *dst = out + (size_t)t * TILE_FLOATS;
        const unsigned parity = (unsigned)(((t - blockIdx.x) / gridDim.x) & 1);
#if HAS_SM90
        if (threadIdx.x == 0) {
            const unsigned bytes = TILE_FLOATS * sizeof(float);
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(&bar)),
                         "r"(bytes)
                         : "memory");
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                             smem_addr(tile)),
                         "l"(src), "r"(bytes), "r"(smem_addr(&bar))
                         : "memory");
        }
        mbar_wait_parity(&bar, parity);
        for (int i = threadIdx.x; i < TILE_FLOATS; i += blockDim.x)
            tile[i] *= s;
        // make generic-proxy writes visible to the async proxy before the bulk store
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        if (threadIdx.x == 0) {
            asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst),
                         "r"(smem_addr(tile)), "r"((unsigned)(TILE_FLOATS * sizeof(float)))
                         : "memory");
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
            asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        }
        // second wait on the (already completed) phase: same inline asm again
        mbar_wait_parity(&bar, parity);
        __syncthreads();
#elif __CUDA_ARCH__ >= 800
        (void)parity;
        for (int i = threadIdx.x; i < TILE_FLOATS; i += blockDim.x)
            tile[i] = src[i] * s;
        unsigned long long tok = mbar_arrive(&bar);
        mbar_wait_token(&bar, tok);
        for (int i = threadIdx.x; i < TILE_FLOATS; i += blockDim.x)
            dst[i] = tile[i];
        __syncthreads();
#else
        (void)parity;
        for (int i = threadIdx.x; i < TILE_FLOATS; i += blockDim.x)
            tile[i] = src[i] * s;
        __syncthreads();
        for (int i = threadIdx.x; i < TILE_FLOATS; i += blockDim.x)
            dst[i] = tile[i];
        __syncthreads();
#endif
    }
#if HAS_SM90
    if (threadIdx.x == 0)
        asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(smem_addr(&bar)) : "memory");
#endif
}

// ---------------------------------------------------------------------------
// 2. Cluster reduction through distributed shared memory.
// ---------------------------------------------------------------------------
#if HAS_SM90
#define CLUSTER_X2 __cluster_dims__(2, 1, 1)
#define CLUSTER_X4 __cluster_dims__(4, 1, 1)
#else
#define CLUSTER_X2
#define CLUSTER_X4
#endif

extern "C" __global__ void CLUSTER_X2 cluster_sum(const float *__restrict__ in, int n,
                                                  float *__restrict__ out)
{
    __shared__ float partial[256];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride)
            partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
#if HAS_SM90
    cg::cluster_group cluster = cg::this_cluster();
    cluster.sync();
    if (cluster.block_rank() == 0 && threadIdx.x == 0) {
        float total = 0.0f;
        for (unsigned r = 0; r < cluster.num_blocks(); ++r) {
            float *peer = cluster.map_shared_rank(partial, r);
            total += peer[0];
        }
        unsigned cid;
        asm("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
        out[cid] = total;
    }
    cluster.sync(); // keep peers' shared memory alive until rank 0 has read it
#else
    if (threadIdx.x == 0)
        atomicAdd(&out[blockIdx.x / 2], partial[0]);
#endif
}

// split arrive/wait cluster barrier, cluster special registers, dsmem stores
extern "C" __global__ void CLUSTER_X4 cluster_ring(int *__restrict__ out)
{
    __shared__ int slot[32];
    if (threadIdx.x < 32)
        slot[threadIdx.x] = -1;
#if HAS_SM90
    unsigned rank, nranks;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(nranks));
    asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
                 "barrier.cluster.wait.acquire.aligned;" ::: "memory");
    // write my rank into the next CTA's shared memory
    cg::cluster_group cluster = cg::this_cluster();
    int *next = cluster.map_shared_rank(slot, (rank + 1) % nranks);
    if (threadIdx.x < 32)
        next[threadIdx.x] = (int)(rank * 100 + threadIdx.x);
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    if (threadIdx.x < 32)
        out[blockIdx.x * 32 + threadIdx.x] = slot[threadIdx.x] + (elect_one() ? 1000000 : 0);
#else
    __syncthreads();
    if (threadIdx.x < 32)
        out[blockIdx.x * 32 + threadIdx.x] = slot[threadIdx.x];
#endif
}

// ---------------------------------------------------------------------------
// 3. Programmatic dependent launch
// ---------------------------------------------------------------------------
extern "C" __global__ void pdl_consumer(const float *__restrict__ produced, float *__restrict__ out,
                                        int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
#if HAS_SM90
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
    if (i < n)
        out[i] = produced[i] * 2.0f;
#if HAS_SM90
    asm volatile("griddepcontrol.launch_dependents;");
#endif
}

// ---------------------------------------------------------------------------
// 4. Warpgroup MMA (sm_90a only): one warpgroup (128 threads) computes a 64x8 f32 tile
//    from a 64x16 A tile and a 16x8 B tile in shared memory (no swizzle).
// ---------------------------------------------------------------------------
__device__ __forceinline__ unsigned long long make_smem_desc(const void *p, unsigned lbo, unsigned sbo)
{
    unsigned long long d = 0;
    d |= (unsigned long long)((smem_addr(p) & 0x3FFFF) >> 4);
    d |= (unsigned long long)((lbo & 0x3FFFF) >> 4) << 16;
    d |= (unsigned long long)((sbo & 0x3FFFF) >> 4) << 32;
    return d; // layout type 0 = interleave / no swizzle
}

extern "C" __global__ void __launch_bounds__(128, 1)
warpgroup_mma(const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C)
{
    __shared__ __align__(128) __half sA[64 * 16];
    __shared__ __align__(128) __half sB[16 * 8];
    for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x)
        sA[i] = A[i];
    for (int i = threadIdx.x; i < 16 * 8; i += blockDim.x)
        sB[i] = B[i];
    __syncthreads();
    float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
#if HAS_SM90A
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    const unsigned long long da = make_smem_desc(sA, 128, 256);
    const unsigned long long db = make_smem_desc(sB, 128, 256);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{\n\t.reg .pred scale_d;\n\t"
                 "setp.ne.b32 scale_d, %6, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
                 "{%0, %1, %2, %3}, %4, %5, scale_d, 1, 1, 0, 0;\n}"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                 : "l"(da), "l"(db), "r"(0));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
#else
    // reference path: thread t owns 4 elements of the 64x8 tile
    for (int e = 0; e < 4; ++e) {
        int idx = threadIdx.x * 4 + e, r = idx / 8, c = idx % 8;
        float acc = 0.f;
        for (int k = 0; k < 16; ++k)
            acc += __half2float(sA[r * 16 + k]) * __half2float(sB[k * 8 + c]);
        (e == 0 ? d0 : e == 1 ? d1 : e == 2 ? d2 : d3) = acc;
    }
#endif
    C[threadIdx.x * 4 + 0] = d0;
    C[threadIdx.x * 4 + 1] = d1;
    C[threadIdx.x * 4 + 2] = d2;
    C[threadIdx.x * 4 + 3] = d3;
}

// ---------------------------------------------------------------------------
// 5. Warp-specialised register reallocation (sm_90a / sm_100a) and tensor-memory
//    allocation (sm_100a). 256 threads: warpgroup 0 = producer, warpgroup 1 = consumer.
// ---------------------------------------------------------------------------
extern "C" __global__ void __launch_bounds__(256, 1)
specialised_roles(const float *__restrict__ in, float *__restrict__ out, unsigned *__restrict__ tmem_out)
{
    __shared__ float stage[256];
    __shared__ unsigned tmem_base;
    const int wg = threadIdx.x / 128;
#if HAS_SM90A || HAS_SM100A
    if (wg == 0)
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    else
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
#endif
    if (wg == 0)
        stage[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
    __syncthreads();
    if (wg == 1)
        out[blockIdx.x * 128 + threadIdx.x - 128] = stage[threadIdx.x - 128] * 3.0f;

#if HAS_SM100A
    // warp 0 allocates 32 columns of tensor memory, publishes the address, frees it
    if (threadIdx.x < 32) {
        asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;" ::"r"(
                         smem_addr(&tmem_base))
                     : "memory");
        asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
    }
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncthreads();
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    if (threadIdx.x == 0)
        tmem_out[blockIdx.x] = tmem_base;
    __syncthreads();
    if (threadIdx.x < 32)
        asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;" ::"r"(tmem_base) : "memory");
#else
    if (threadIdx.x == 0) {
        tmem_base = 0xffffffffu;
        tmem_out[blockIdx.x] = tmem_base;
    }
#endif
}

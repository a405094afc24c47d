// async_wmma.cu -- part of the ptxls PTX corpus (original code, written for ptxls).
//
// Asynchronous copies and tensor-core fragments:
//   * __pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior (cp.async, sm_80+;
//     plain loads/stores on older targets)
//   * cuda::memcpy_async with a multi-stage cuda::pipeline (libcu++)
//   * nvcuda::wmma: f16 -> f32 (sm_70+), u8 -> s32 (sm_72+), bf16 and tf32 (sm_80+),
//     f64 m8n8k4 (sm_80+); load_matrix_sync/mma_sync/store_matrix_sync
//   * ldmatrix and mma.sync via inline PTX (sm_80+)
#include <cooperative_groups.h>
#include <cuda/pipeline>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

// ---------------------------------------------------------------------------
// 1. Double-buffered 1-D stencil with cp.async primitives
// ---------------------------------------------------------------------------
constexpr int CHUNK = 256; // floats per stage, == blockDim.x

extern "C" __global__ void stencil_cp_async(const float *__restrict__ in, float *__restrict__ out,
                                            int nchunks)
{
    __shared__ __align__(16) float buf[2][CHUNK + 2];
    const int t = threadIdx.x;
    const float *base = in + (size_t)blockIdx.x * nchunks * CHUNK;
    float *obase = out + (size_t)blockIdx.x * nchunks * CHUNK;

    auto issue = [&](int stage, int chunk) {
        const float *src = base + (size_t)chunk * CHUNK;
#if __CUDA_ARCH__ >= 800
        __pipeline_memcpy_async(&buf[stage][t + 1], src + t, sizeof(float));
        if (t == 0)
            __pipeline_memcpy_async(&buf[stage][0], chunk > 0 ? src - 1 : src, sizeof(float));
        if (t == CHUNK - 1)
            __pipeline_memcpy_async(&buf[stage][CHUNK + 1],
                                    chunk + 1 < nchunks ? src + CHUNK : src + CHUNK - 1, sizeof(float));
        __pipeline_commit();
#else
        buf[stage][t + 1] = src[t];
        if (t == 0)
            buf[stage][0] = chunk > 0 ? src[-1] : src[0];
        if (t == CHUNK - 1)
            buf[stage][CHUNK + 1] = chunk + 1 < nchunks ? src[CHUNK] : src[CHUNK - 1];
#endif
    };

    issue(0, 0);
    for (int c = 0; c < nchunks; ++c) {
        const int stage = c & 1;
        if (c + 1 < nchunks)
            issue(stage ^ 1, c + 1);
#if __CUDA_ARCH__ >= 800
        if (c + 1 < nchunks)
            __pipeline_wait_prior(1);
        else
            __pipeline_wait_prior(0);
#endif
        __syncthreads();
        obase[(size_t)c * CHUNK + t] =
            0.25f * buf[stage][t] + 0.5f * buf[stage][t + 1] + 0.25f * buf[stage][t + 2];
        __syncthreads();
    }
}

// ---------------------------------------------------------------------------
// 2. 16-byte cp.async of float4 tiles through cuda::pipeline with 3 stages
// ---------------------------------------------------------------------------
constexpr int STAGES = 3;
constexpr int TILE4 = 128; // float4 per stage == blockDim.x

extern "C" __global__ void scale_pipeline(const float4 *__restrict__ in, float4 *__restrict__ out,
                                          int ntiles, float s)
{
    __shared__ __align__(16) float4 tiles[STAGES][TILE4];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    auto block = cooperative_groups::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);

    int fetch = 0;
    for (int t = 0; t < ntiles; ++t) {
        for (; fetch < ntiles && fetch < t + STAGES; ++fetch) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, tiles[fetch % STAGES], in + (size_t)fetch * TILE4,
                               cuda::aligned_size_t<16>(sizeof(float4) * TILE4), pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        float4 v = tiles[t % STAGES][threadIdx.x];
        v.x *= s;
        v.y *= s;
        v.z *= s;
        v.w *= s;
        out[(size_t)t * TILE4 + threadIdx.x] = v;
        pipe.consumer_release();
    }
}

// ---------------------------------------------------------------------------
// 3. WMMA GEMM, f16 inputs, f32 accumulate. One warp per 16x16 output tile.
//    A row-major MxK, B col-major KxN, C row-major. M,N,K multiples of 16.
// ---------------------------------------------------------------------------
extern "C" __global__ void wmma_gemm_f16(const __half *__restrict__ A, const __half *__restrict__ B,
                                         float *__restrict__ C, int M, int N, int K)
{
    const int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int warpN = blockIdx.y * blockDim.y + threadIdx.y;
    if (warpM * 16 >= M || warpN * 16 >= N)
        return;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + (size_t)warpM * 16 * K + k, K);
        wmma::load_matrix_sync(b, B + (size_t)warpN * 16 * K + k, K);
        wmma::mma_sync(acc, a, b, acc);
    }
    for (int i = 0; i < acc.num_elements; ++i)
        acc.x[i] = fmaxf(acc.x[i], 0.0f); // fused ReLU on the fragment
    wmma::store_matrix_sync(C + (size_t)warpM * 16 * N + warpN * 16, acc, N, wmma::mem_row_major);
}

// 32x8x16 shape with f16 accumulator, and 8-bit integer fragments
extern "C" __global__ void wmma_shapes(const __half *__restrict__ Ah, const __half *__restrict__ Bh,
                                       __half *__restrict__ Ch, const unsigned char *__restrict__ Au,
                                       const unsigned char *__restrict__ Bu, int *__restrict__ Ci)
{
    wmma::fragment<wmma::matrix_a, 32, 8, 16, __half, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 32, 8, 16, __half> c;
    wmma::load_matrix_sync(a, Ah, 32);
    wmma::load_matrix_sync(b, Bh, 8);
    wmma::load_matrix_sync(c, Ch, 8, wmma::mem_col_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(Ch, c, 8, wmma::mem_col_major);

    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> ua;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::col_major> ub;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> ci;
    wmma::fill_fragment(ci, 0);
    wmma::load_matrix_sync(ua, Au, 16);
    wmma::load_matrix_sync(ub, Bu, 16);
    wmma::mma_sync(ci, ua, ub, ci, true);
    wmma::store_matrix_sync(Ci, ci, 16, wmma::mem_row_major);
}

// bf16, tf32 and f64 fragments exist on sm_80+ only
extern "C" __global__ void wmma_ampere_types(const __nv_bfloat16 *__restrict__ Ab,
                                             const __nv_bfloat16 *__restrict__ Bb,
                                             const float *__restrict__ At,
                                             const float *__restrict__ Bt,
                                             const double *__restrict__ Ad,
                                             const double *__restrict__ Bd, float *__restrict__ Cf,
                                             double *__restrict__ Cd)
{
#if __CUDA_ARCH__ >= 800
    {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> b;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
        wmma::fill_fragment(c, 1.0f);
        wmma::load_matrix_sync(a, Ab, 16);
        wmma::load_matrix_sync(b, Bb, 16);
        wmma::mma_sync(c, a, b, c);
        wmma::store_matrix_sync(Cf, c, 16, wmma::mem_row_major);
    }
    {
        wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b;
        wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
        wmma::load_matrix_sync(a, At, 8);
        wmma::load_matrix_sync(b, Bt, 8);
        for (int i = 0; i < a.num_elements; ++i)
            a.x[i] = wmma::__float_to_tf32(a.x[i]);
        for (int i = 0; i < b.num_elements; ++i)
            b.x[i] = wmma::__float_to_tf32(b.x[i]);
        wmma::load_matrix_sync(c, Cf + 256, 16, wmma::mem_row_major);
        wmma::mma_sync(c, a, b, c);
        wmma::store_matrix_sync(Cf + 256, c, 16, wmma::mem_row_major);
    }
    {
        wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> b;
        wmma::fragment<wmma::accumulator, 8, 8, 4, double> c;
        wmma::fill_fragment(c, 0.0);
        wmma::load_matrix_sync(a, Ad, 4);
        wmma::load_matrix_sync(b, Bd, 8);
        wmma::mma_sync(c, a, b, c);
        wmma::store_matrix_sync(Cd, c, 8, wmma::mem_row_major);
    }
#else
    if (threadIdx.x == 0)
        Cf[0] = __bfloat162float(Ab[0]) * __bfloat162float(Bb[0]) + At[0] * Bt[0] + (float)(Ad[0] * Bd[0]);
    (void)Cd;
#endif
}

// ---------------------------------------------------------------------------
// 4. ldmatrix + mma.sync.m16n8k16 written as inline PTX (one warp, one 16x8 tile)
// ---------------------------------------------------------------------------
extern "C" __global__ void mma_inline_m16n8k16(const __half *__restrict__ A,
                                               const __half *__restrict__ B, float *__restrict__ C)
{
    __shared__ __align__(16) __half sA[16 * 16];
    __shared__ __align__(16) __half sB[8 * 16];
    const int lane = threadIdx.x & 31;
    for (int i = lane; i < 256; i += 32)
        sA[i] = A[i];
    for (int i = lane; i < 128; i += 32)
        sB[i] = B[i];
    __syncwarp();
#if __CUDA_ARCH__ >= 800
    unsigned a0, a1, a2, a3, b0, b1;
    unsigned aaddr = (unsigned)__cvta_generic_to_shared(&sA[(lane % 16) * 16 + (lane / 16) * 8]);
    unsigned baddr = (unsigned)__cvta_generic_to_shared(&sB[(lane % 8) * 16 + ((lane / 8) % 2) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
                 : "r"(aaddr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(b0), "=r"(b1)
                 : "r"(baddr));
    float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    const int row = lane / 4, col = (lane % 4) * 2;
    C[row * 8 + col] = d0;
    C[row * 8 + col + 1] = d1;
    C[(row + 8) * 8 + col] = d2;
    C[(row + 8) * 8 + col + 1] = d3;
#else
    // scalar fallback: each lane computes four outputs
    for (int o = lane; o < 128; o += 32) {
        int r = o / 8, c = o % 8;
        float s = 0.f;
        for (int k = 0; k < 16; ++k)
            s += __half2float(sA[r * 16 + k]) * __half2float(sB[c * 16 + k]);
        C[o] = s;
    }
#endif
}

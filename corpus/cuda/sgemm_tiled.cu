// sgemm_tiled.cu -- part of the ptxls PTX corpus (original code, written for ptxls).
//
// Dense single-precision matrix kernels:
//   * sgemm_tiled<TILE>      : classic shared-memory tiled GEMM, one output per thread,
//                              __syncthreads between load and compute phases
//   * sgemm_regblock         : 64x64 block tile, each thread computes a 4x4 micro tile,
//                              float4 (v4) global/shared loads, double-buffered shared tiles
//   * transpose_padded       : shared-memory transpose with a padded tile (bank conflicts)
//   * sgemv_rowwarp          : one warp per row, shuffle reduction at the end
#include <cuda_runtime.h>

// ---------------------------------------------------------------------------
// 1. Tiled SGEMM (row-major):  C = alpha * A(MxK) * B(KxN) + beta * C
// ---------------------------------------------------------------------------
template <int TILE>
__global__ void sgemm_tiled(int M, int N, int K, float alpha,
                            const float *__restrict__ A, int lda,
                            const float *__restrict__ B, int ldb, float beta,
                            float *__restrict__ C, int ldc)
{
    __shared__ float sA[TILE][TILE + 1];
    __shared__ float sB[TILE][TILE];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;

    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        sA[ty][tx] = (row < M && k0 + tx < K) ? A[(size_t)row * lda + k0 + tx] : 0.0f;
        sB[ty][tx] = (col < N && k0 + ty < K) ? B[(size_t)(k0 + ty) * ldb + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc = fmaf(sA[ty][k], sB[k][tx], acc);
        __syncthreads();
    }
    if (row < M && col < N) {
        float *out = C + (size_t)row * ldc + col;
        *out = (beta == 0.0f) ? alpha * acc : fmaf(alpha, acc, beta * *out);
    }
}

template __global__ void sgemm_tiled<8>(int, int, int, float, const float *, int,
                                        const float *, int, float, float *, int);
template __global__ void sgemm_tiled<16>(int, int, int, float, const float *, int,
                                         const float *, int, float, float *, int);
template __global__ void sgemm_tiled<32>(int, int, int, float, const float *, int,
                                         const float *, int, float, float *, int);

// ---------------------------------------------------------------------------
// 2. Register-blocked SGEMM. Block = 16x16 threads, block tile 64x64, k-step 8.
//    Requires M, N multiples of 64 and K multiple of 8 (checked by the caller).
// ---------------------------------------------------------------------------
namespace regblock {
constexpr int BM = 64, BN = 64, BK = 8, TM = 4, TN = 4;
}

extern "C" __global__ void __launch_bounds__(256)
sgemm_regblock(int M, int N, int K, const float *__restrict__ A,
               const float *__restrict__ B, float *__restrict__ C)
{
    using namespace regblock;
    // two stages so that loading tile k+1 overlaps computing on tile k
    __shared__ __align__(16) float sA[2][BK][BM]; // A stored transposed: [k][m]
    __shared__ __align__(16) float sB[2][BK][BN];

    const int tid = threadIdx.y * blockDim.x + threadIdx.x; // 0..255
    const int tRow = threadIdx.y * TM;
    const int tCol = threadIdx.x * TN;
    const float *Ablk = A + (size_t)blockIdx.y * BM * K;
    const float *Bblk = B + (size_t)blockIdx.x * BN;

    // A tile is 64x8 = 512 floats: 2 per thread. B tile is 8x64 = 512 floats: 2 per thread.
    const int aRow = tid >> 2, aCol = (tid & 3) * 2;
    const int bRow = tid >> 5, bCol = (tid & 31) * 2;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;

    auto load_stage = [&](int stage, int k0) {
        float2 a = *reinterpret_cast<const float2 *>(Ablk + (size_t)aRow * K + k0 + aCol);
        sA[stage][aCol + 0][aRow] = a.x;
        sA[stage][aCol + 1][aRow] = a.y;
        float2 b = *reinterpret_cast<const float2 *>(Bblk + (size_t)(k0 + bRow) * N + bCol);
        *reinterpret_cast<float2 *>(&sB[stage][bRow][bCol]) = b;
    };

    load_stage(0, 0);
    __syncthreads();

    int stage = 0;
    for (int k0 = 0; k0 < K; k0 += BK) {
        if (k0 + BK < K)
            load_stage(stage ^ 1, k0 + BK);
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float4 a = *reinterpret_cast<const float4 *>(&sA[stage][kk][tRow]);
            float4 b = *reinterpret_cast<const float4 *>(&sB[stage][kk][tCol]);
            float av[4] = {a.x, a.y, a.z, a.w};
            float bv[4] = {b.x, b.y, b.z, b.w};
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
        }
        __syncthreads();
        stage ^= 1;
    }

    float *Cblk = C + (size_t)(blockIdx.y * BM + tRow) * N + blockIdx.x * BN + tCol;
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        float4 v = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        *reinterpret_cast<float4 *>(Cblk + (size_t)i * N) = v;
    }
    (void)M;
}

// ---------------------------------------------------------------------------
// 3. Transpose through a padded shared tile (32x33 avoids bank conflicts).
// ---------------------------------------------------------------------------
extern "C" __global__ void transpose_padded(float *__restrict__ out,
                                            const float *__restrict__ in,
                                            int rows, int cols)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += blockDim.y)
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = __ldg(&in[(size_t)(y + j) * cols + x]);
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += blockDim.y)
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

// ---------------------------------------------------------------------------
// 4. SGEMV, one warp per row.
// ---------------------------------------------------------------------------
extern "C" __global__ void sgemv_rowwarp(int rows, int cols, const float *__restrict__ A,
                                         const float *__restrict__ x, float *__restrict__ y)
{
    const int lane = threadIdx.x & 31;
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (row >= rows)
        return;
    const float *r = A + (size_t)row * cols;
    float s = 0.0f;
    for (int c = lane; c < cols; c += 32)
        s += r[c] * x[c];
    for (int off = 16; off > 0; off >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, off);
    if (lane == 0)
        y[row] = s;
}

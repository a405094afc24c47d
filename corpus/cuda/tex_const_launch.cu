// tex_const_launch.cu -- part of the ptxls PTX corpus (original code, written for ptxls).
//
// Resource-binding and launch-attribute PTX:
//   * texture objects: tex1Dfetch, tex2D, tex2DLod, tex3D, tex2DGather, tex2DLayered
//     (.texref handles passed as .u64 kernel parameters, tex.* / tld4.* instructions)
//   * surface objects: surf2Dread / surf2Dwrite / surf1Dwrite (suld / sust), clamp modes
//   * __constant__ arrays and structs (.const, ld.const), constant-indexed and
//     thread-indexed accesses
//   * __launch_bounds__(maxThreads, minBlocks) -> .maxntid / .minnctapersm, __maxnreg__
//     -> .maxnreg, and a kernel with many parameters (large .param space)
//   * dynamic shared memory (extern __shared__), including two differently typed views,
//     and a statically sized __shared__ array next to it
#include <cuda_runtime.h>

struct FilterParams {
    float weights[9];
    float bias;
    int radius;
    unsigned flags;
};

__constant__ float c_gauss[32];
__constant__ FilterParams c_filter;
__constant__ int2 c_offsets[8] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0},
                                  {1, 0},   {-1, 1}, {0, 1},  {1, 1}};

// ---------------------------------------------------------------------------
// 1. 3x3 filter sampling a 2-D texture, weights from constant memory
// ---------------------------------------------------------------------------
extern "C" __global__ void __launch_bounds__(256, 4)
filter3x3_tex(cudaTextureObject_t src, float *__restrict__ dst, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    const float u = x + 0.5f, v = y + 0.5f;
    float acc = c_filter.bias;
#pragma unroll
    for (int k = 0; k < 8; ++k) {
        int2 o = c_offsets[k];
        acc += c_filter.weights[k < 4 ? k : k + 1] * tex2D<float>(src, u + o.x, v + o.y);
    }
    acc += c_filter.weights[4] * tex2D<float>(src, u, v);
    if (c_filter.flags & 1u)
        acc = fmaxf(acc, 0.0f);
    dst[y * width + x] = acc;
}

// ---------------------------------------------------------------------------
// 2. Assorted texture fetch forms
// ---------------------------------------------------------------------------
extern "C" __global__ void __launch_bounds__(128, 2)
texture_zoo(cudaTextureObject_t lin, cudaTextureObject_t tex2d, cudaTextureObject_t tex3d,
            cudaTextureObject_t layered, cudaTextureObject_t itex, float4 *__restrict__ out,
            int n, float lod)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float fx = (i % 64) / 64.0f, fy = (i / 64) / 64.0f;
    float4 a = tex1Dfetch<float4>(lin, i);
    float4 b = tex2DLod<float4>(tex2d, fx, fy, lod);
    float c = tex3D<float>(tex3d, fx, fy, 0.5f);
    float4 g = tex2Dgather<float4>(tex2d, fx, fy, 1);
    float d = tex2DLayered<float>(layered, fx, fy, i & 3);
    int e = tex1Dfetch<int>(itex, i ^ 1);
    float4 grad = tex2DGrad<float4>(tex2d, fx, fy, make_float2(0.01f, 0.0f), make_float2(0.0f, 0.01f));
    out[i] = make_float4(a.x + b.x + g.w + grad.x, a.y + c + grad.y, a.z + d, a.w + (float)e);
}

// ---------------------------------------------------------------------------
// 3. Surface read-modify-write with a Gaussian from constant memory
// ---------------------------------------------------------------------------
extern "C" __global__ void surface_blur_rows(cudaSurfaceObject_t surf, cudaSurfaceObject_t line_out,
                                             int width, int height, int radius)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y;
    if (x >= width || y >= height)
        return;
    float acc = 0.0f;
    for (int k = -radius; k <= radius; ++k) {
        float v;
        surf2Dread(&v, surf, (x + k) * (int)sizeof(float), y, cudaBoundaryModeClamp);
        acc += c_gauss[k + radius] * v;
    }
    uchar4 packed = make_uchar4((unsigned char)fminf(acc * 255.0f, 255.0f), 0, 0, 255);
    surf2Dwrite(packed, surf, x * (int)sizeof(uchar4), y, cudaBoundaryModeZero);
    if (y == 0)
        surf1Dwrite(acc, line_out, x * (int)sizeof(float), cudaBoundaryModeTrap);
}

// ---------------------------------------------------------------------------
// 4. Dynamic shared memory: block-wide sort-free top-k threshold (counting in shared)
//    extern __shared__ buffer is viewed as float[blockDim.x] followed by int[bins].
// ---------------------------------------------------------------------------
extern "C" __global__ void __launch_bounds__(512, 1)
dyn_smem_histo(const float *__restrict__ in, int n, int bins, float lo, float hi,
               int *__restrict__ out_counts, float *__restrict__ out_vals)
{
    extern __shared__ __align__(16) unsigned char dyn[];
    __shared__ int block_total;
    float *vals = reinterpret_cast<float *>(dyn);
    int *counts = reinterpret_cast<int *>(dyn + blockDim.x * sizeof(float));

    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        counts[b] = 0;
    if (threadIdx.x == 0)
        block_total = 0;
    __syncthreads();

    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : lo;
    vals[threadIdx.x] = v;
    int bin = (int)((v - lo) / (hi - lo) * bins);
    bin = min(max(bin, 0), bins - 1);
    if (i < n) {
        atomicAdd(&counts[bin], 1);
        atomicAdd(&block_total, 1);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        atomicAdd(&out_counts[b], counts[b]);
    // neighbour exchange through the dynamic buffer
    float right = vals[(threadIdx.x + 1) % blockDim.x];
    if (i < n)
        out_vals[i] = 0.5f * (v + right) * (float)block_total;
}

// dynamic shared memory as double, with __maxnreg__ limiting the register budget
extern "C" __global__ void __maxnreg__(32)
dyn_smem_double_scan(const double *__restrict__ in, double *__restrict__ out, int n)
{
    extern __shared__ double sdata[];
    const int t = threadIdx.x;
    const int i = blockIdx.x * blockDim.x + t;
    sdata[t] = i < n ? in[i] : 0.0;
    __syncthreads();
    // Hillis-Steele inclusive scan
    for (int off = 1; off < (int)blockDim.x; off <<= 1) {
        double add = t >= off ? sdata[t - off] : 0.0;
        __syncthreads();
        sdata[t] += add;
        __syncthreads();
    }
    if (i < n)
        out[i] = sdata[t];
}

// ---------------------------------------------------------------------------
// 5. Many kernel parameters of mixed types, including a by-value struct
// ---------------------------------------------------------------------------
struct LaunchConfig {
    int nx, ny, nz;
    float dx, dy, dz;
    double t0;
    unsigned char mode;
    short2 pad;
};

extern "C" __global__ void __launch_bounds__(64)
many_params(LaunchConfig cfg, char c0, short s0, int i0, long long l0, float f0, double d0,
            unsigned char uc, unsigned short us, unsigned u0, unsigned long long ul0,
            const float *__restrict__ p0, const double *__restrict__ p1, float2 v2, double2 dv2,
            char4 c4, float *__restrict__ result)
{
    const int i = threadIdx.x;
    double acc = cfg.t0 + cfg.dx * cfg.nx + cfg.dy * cfg.ny + cfg.dz * cfg.nz + cfg.mode + cfg.pad.x;
    acc += c0 + s0 + i0 + (double)l0 + f0 + d0 + uc + us + u0 + (double)ul0;
    acc += p0[i] + p1[i] + v2.x * v2.y + dv2.x - dv2.y + c4.x + c4.y + c4.z + c4.w;
    result[i] = (float)(acc * c_gauss[i & 31]);
}

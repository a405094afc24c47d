// half_math.cu -- part of the ptxls PTX corpus (original code, written for ptxls).
//
// Reduced-precision and math-library PTX:
//   * __half / __half2 arithmetic, fma, comparisons, conversions (cuda_fp16.h)
//   * __nv_bfloat16 / __nv_bfloat162 arithmetic (native on sm_80+, emulated below)
//   * single-precision libdevice math (sinf, cosf, expf, logf, powf, erff, tanhf, atan2f),
//     fast intrinsics (__sinf, __expf, __fdividef, rsqrtf), rounding-mode intrinsics
//   * double precision (sin, exp, log, sqrt, fma, division) -> large internal helpers
//   * integer intrinsics (__brev, __clz, __popcll, __funnelshift_l, __byte_perm, __umulhi,
//     __dp4a, __sad, 64-bit division/remainder, __int128 multiply)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// ---------------------------------------------------------------------------
// half2 AXPY + activation; exercise packed f16x2 instructions
// ---------------------------------------------------------------------------
extern "C" __global__ void half2_axpy_gelu(int n2, __half alpha, const __half2 *__restrict__ x,
                                           __half2 *__restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n2)
        return;
    const __half2 a2 = __half2half2(alpha);
    __half2 v = __hfma2(a2, x[i], y[i]);
    // tanh-approximated GELU done in f32 for accuracy, then packed back
    float2 f = __half22float2(v);
    const float k0 = 0.7978845608f, k1 = 0.044715f;
    f.x = 0.5f * f.x * (1.0f + tanhf(k0 * (f.x + k1 * f.x * f.x * f.x)));
    f.y = 0.5f * f.y * (1.0f + tanhf(k0 * (f.y + k1 * f.y * f.y * f.y)));
    __half2 g = __float22half2_rn(f);
    // clamp with half2 comparisons
    const __half2 lim = __floats2half2_rn(60000.0f, 60000.0f);
    g = __hmin2(__hmax2(g, __hneg2(lim)), lim);
    y[i] = __hmul2(g, __hadd2(__float2half2_rn(1.0f), __habs2(x[i])));
}

extern "C" __global__ void half_scalar_mix(int n, const __half *__restrict__ a,
                                           const __half *__restrict__ b, __half *__restrict__ out,
                                           int *__restrict__ flags)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half x = a[i], y = b[i];
    __half s = __hadd(x, y);
    __half d = __hsub(x, y);
    __half q = __hdiv(s, __hadd(__habs(d), __float2half(1.0f)));
    int f = 0;
    f |= __hisnan(q) ? 1 : 0;
    f |= __hisinf(s) ? 2 : 0;
    f |= __hgt(x, y) ? 4 : 0;
    f |= __heq(x, y) ? 8 : 0;
    out[i] = __hfma(q, hsqrt(__habs(x)), hexp(__hneg(__habs(y))));
    flags[i] = f + __half2int_rz(q) + (int)__half_as_ushort(d);
}

// ---------------------------------------------------------------------------
// bfloat16
// ---------------------------------------------------------------------------
extern "C" __global__ void bf16_layernorm_row(int cols, const __nv_bfloat16 *__restrict__ in,
                                              const __nv_bfloat16 *__restrict__ gamma,
                                              const __nv_bfloat16 *__restrict__ beta,
                                              __nv_bfloat16 *__restrict__ out)
{
    // one block per row, blockDim.x == 128
    __shared__ float red[2][4];
    const __nv_bfloat16 *r = in + (size_t)blockIdx.x * cols;
    float s = 0.0f, s2 = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        float v = __bfloat162float(r[c]);
        s += v;
        s2 = fmaf(v, v, s2);
    }
    for (int o = 16; o > 0; o >>= 1) {
        s += __shfl_xor_sync(0xffffffffu, s, o);
        s2 += __shfl_xor_sync(0xffffffffu, s2, o);
    }
    if ((threadIdx.x & 31) == 0) {
        red[0][threadIdx.x >> 5] = s;
        red[1][threadIdx.x >> 5] = s2;
    }
    __syncthreads();
    s = red[0][0] + red[0][1] + red[0][2] + red[0][3];
    s2 = red[1][0] + red[1][1] + red[1][2] + red[1][3];
    const float mean = s / cols;
    const float inv = rsqrtf(s2 / cols - mean * mean + 1e-5f);
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        __nv_bfloat16 centered = __float2bfloat16_rn((__bfloat162float(r[c]) - mean) * inv);
#if __CUDA_ARCH__ >= 800
        out[(size_t)blockIdx.x * cols + c] = __hfma(centered, gamma[c], beta[c]); // fma.rn.bf16
#else
        out[(size_t)blockIdx.x * cols + c] = __float2bfloat16_rn(
            fmaf(__bfloat162float(centered), __bfloat162float(gamma[c]), __bfloat162float(beta[c])));
#endif
    }
}

extern "C" __global__ void bf16x2_ops(int n2, const __nv_bfloat162 *__restrict__ a,
                                      const __nv_bfloat162 *__restrict__ b,
                                      __nv_bfloat162 *__restrict__ out, float *__restrict__ dots)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n2)
        return;
    __nv_bfloat162 x = a[i], y = b[i];
#if __CUDA_ARCH__ >= 800
    // native bf16x2 instructions
    __nv_bfloat162 p = __hmul2(x, y);
    __nv_bfloat162 q = __hfma2(x, x, __hneg2(y));
    __nv_bfloat162 m = __hmax2(p, q);
    out[i] = __hadd2(m, __floats2bfloat162_rn(0.25f, -0.25f));
#else
    // emulate through f32 on older targets
    float2 xf = __bfloat1622float2(x), yf = __bfloat1622float2(y);
    __nv_bfloat162 p = __floats2bfloat162_rn(xf.x * yf.x, xf.y * yf.y);
    __nv_bfloat162 q = __floats2bfloat162_rn(fmaf(xf.x, xf.x, -yf.x), fmaf(xf.y, xf.y, -yf.y));
    float2 pf0 = __bfloat1622float2(p), qf0 = __bfloat1622float2(q);
    out[i] = __floats2bfloat162_rn(fmaxf(pf0.x, qf0.x) + 0.25f, fmaxf(pf0.y, qf0.y) - 0.25f);
#endif
    float2 pf = __bfloat1622float2(p);
    dots[i] = pf.x + pf.y + __low2float(q) * __high2float(q);
}

// f16 <-> bf16 <-> f32 <-> f64 conversion chain with explicit rounding modes
extern "C" __global__ void conversions(int n, const double *__restrict__ in,
                                       __half *__restrict__ h, __nv_bfloat16 *__restrict__ bf,
                                       int *__restrict__ ints, float *__restrict__ f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double d = in[i];
    float fr = __double2float_rn(d), fz = __double2float_rz(d);
    float fu = __double2float_ru(d), fd = __double2float_rd(d);
    h[i] = __float2half_rz(fr);
    bf[i] = __float2bfloat16_rz(fz);
    ints[4 * i + 0] = __float2int_rn(fu);
    ints[4 * i + 1] = __double2int_rz(d);
    ints[4 * i + 2] = (int)__double2uint_ru(fabs(d));
    ints[4 * i + 3] = (int)__double2ll_rd(d);
    f[i] = __int2float_rn(ints[4 * i]) + __ull2float_rd((unsigned long long)i) + fd +
           __uint2float_rz((unsigned)i) + __saturatef(fr);
}

// ---------------------------------------------------------------------------
// single precision math library
// ---------------------------------------------------------------------------
extern "C" __global__ void math_f32(int n, const float *__restrict__ x, float *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i];
    float s, c;
    sincosf(v, &s, &c);
    float r = 0.0f;
    r += sinf(v * 3.0f) + cosf(v) + tanf(v * 0.1f);
    r += expf(-v * v) + exp2f(v) + expm1f(v * 1e-3f);
    r += logf(fabsf(v) + 1.0f) + log2f(fabsf(v) + 2.0f) + log1pf(fabsf(v));
    r += powf(fabsf(v), 1.7f) + cbrtf(v) + hypotf(s, c);
    r += erff(v) + erfcf(v) + tgammaf(fabsf(v) + 0.5f) + lgammaf(fabsf(v) + 1.0f);
    r += atan2f(s, c) + asinf(fminf(fabsf(s), 1.0f)) + acoshf(fabsf(v) + 1.0f);
    r += fmodf(v, 1.3f) + remainderf(v, 0.7f) + truncf(v) + roundf(v) + rintf(v) + floorf(v);
    r += __sinf(v) + __cosf(v) + __expf(v) + __logf(fabsf(v) + 1.0f) + __powf(2.0f, v);
    r += __fdividef(s, c + 2.0f) + rsqrtf(fabsf(v) + 1.0f) + sqrtf(fabsf(v)) + __frcp_rn(v + 3.0f);
    r += __fadd_rz(v, 1.0f) + __fmul_ru(v, v) + __fmaf_rd(v, v, v) + __fsqrt_ru(fabsf(v));
    r += copysignf(1.0f, v) + fdimf(v, 0.5f) + ldexpf(v, 3) + scalbnf(v, -2);
    int e = 0;
    float mant = frexpf(v, &e);
    r += mant + (float)e + (float)ilogbf(v + 10.0f) + nextafterf(v, 0.0f);
    r += normcdff(v) + erfinvf(fminf(fmaxf(v, -0.99f), 0.99f)) + j0f(v) + y1f(fabsf(v) + 1.0f);
    out[i] = r / (float)(1 + (i & 7));
}

// ---------------------------------------------------------------------------
// double precision
// ---------------------------------------------------------------------------
extern "C" __global__ void math_f64(int n, const double *__restrict__ x, double *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double v = x[i];
    double r = sin(v) + cos(2.0 * v) + exp(-v) + log(fabs(v) + 1.0) + sqrt(fabs(v));
    r += pow(fabs(v), 0.3) + atan(v) + tanh(v) + cbrt(v) + erf(v);
    r += fma(v, v, 1.0) / (v * v + 1.0) + rsqrt(fabs(v) + 1.0) + rcbrt(fabs(v) + 2.0);
    r += __dadd_rn(v, 1.0) + __dmul_rz(v, 3.0) + __ddiv_ru(v, 7.0) + __dsqrt_rd(fabs(v));
    double ip;
    r += modf(v, &ip) + ip + fmax(v, 0.0) + fmin(v, 1.0) + (double)isfinite(v);
    out[i] = r;
}

// ---------------------------------------------------------------------------
// integer intrinsics
// ---------------------------------------------------------------------------
extern "C" __global__ void int_intrinsics(int n, const unsigned *__restrict__ a,
                                          const unsigned long long *__restrict__ b,
                                          unsigned long long *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i];
    unsigned long long y = b[i];
    unsigned long long r = 0;
    r += __brev(x) + __clz((int)x) + __ffs((int)x) + __popc(x);
    r += __brevll(y) + (unsigned long long)__clzll((long long)y) + __popcll(y) + __ffsll((long long)y);
    r += __funnelshift_l(x, x ^ 0xdeadbeefu, i & 31) + __funnelshift_rc(x, ~x, 40);
    r += __byte_perm(x, 0x01234567u, 0x3210 + (i & 3)) + __umulhi(x, 0x9e3779b9u);
    r += (unsigned long long)__umul64hi(y, 0x9e3779b97f4a7c15ull) + __mul24((int)x, 7) + __umul24(x, 9u);
    r += (unsigned long long)__dp4a((int)x, 0x01010101, 3) + __dp2a_lo(x, 0x00020001u, 5u);
    r += __sad((int)x, 12345, 0u) + __usad(x, 77u, 1u) + __vabsdiffu4(x, 0x80808080u);
    r += __vadd4(x, 0x01010101u) + __vcmpgtu2(x, 0x7fff7fffu) + __hadd((int)x, 3) + __urhadd(x, 5u);
    // 64-bit division and remainder (call into __internal helpers or inline sequences)
    unsigned long long d = (y | 1ull);
    r += (y * 31ull + 7ull) / d + (y % (unsigned long long)(x | 1u));
    long long sy = (long long)y;
    r += (unsigned long long)(sy / (long long)((int)x | 1)) + (unsigned long long)(sy % 1000003ll);
    // 128-bit product
    unsigned __int128 p = (unsigned __int128)y * (unsigned __int128)(x | 1u);
    r += (unsigned long long)(p >> 64) ^ (unsigned long long)p;
    out[i] = r;
}

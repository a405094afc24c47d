// device_calls.cu -- part of the ptxls PTX corpus (original code, written for ptxls).
//
// Call-related PTX:
//   * __noinline__ device functions taking and returning structs by value (.param .align N .b8)
//   * function pointers in a __device__ table -> indirect call with .callprototype
//   * recursion (stack frames, local memory) and mutual recursion
//   * printf -> vprintf call sequence with a local argument buffer
//   * C++ virtual functions (vtables in .global, indirect calls)
//   * with -rdc=true (__CUDACC_RDC__): calls to an extern device function and an
//     extern __device__ variable defined in another translation unit (.extern .func)
#include <cstdio>
#include <cuda_runtime.h>
#include <new>

struct Vec3 {
    float x, y, z;
};

struct Ray {
    Vec3 origin;
    Vec3 dir;
};

struct Sphere {
    Vec3 center;
    float radius;
    int material;
};

struct Hit {
    float t;
    int material;
    Vec3 normal;
    bool valid;
};

struct __align__(16) Packet {
    double weight;
    long long id;
    short tag[4];
};

__device__ __noinline__ Vec3 vsub(Vec3 a, Vec3 b) { return Vec3{a.x - b.x, a.y - b.y, a.z - b.z}; }

__device__ __noinline__ float vdot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

__device__ __noinline__ Vec3 vscale(Vec3 a, float s) { return Vec3{a.x * s, a.y * s, a.z * s}; }

__device__ __noinline__ Vec3 vcross(Vec3 a, Vec3 b)
{
    return Vec3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

__device__ __noinline__ Hit intersect(Ray r, Sphere s)
{
    Hit h{};
    Vec3 oc = vsub(r.origin, s.center);
    float b = vdot(oc, r.dir);
    float c = vdot(oc, oc) - s.radius * s.radius;
    float disc = b * b - c;
    if (disc < 0.0f)
        return h;
    float t = -b - sqrtf(disc);
    if (t <= 0.0f)
        return h;
    Vec3 p = Vec3{r.origin.x + t * r.dir.x, r.origin.y + t * r.dir.y, r.origin.z + t * r.dir.z};
    h.t = t;
    h.material = s.material;
    h.normal = vscale(vsub(p, s.center), 1.0f / s.radius);
    h.valid = true;
    return h;
}

__device__ __noinline__ Packet merge_packets(Packet a, Packet b)
{
    Packet r;
    r.weight = a.weight + b.weight;
    r.id = a.id ^ (b.id << 1);
    for (int i = 0; i < 4; ++i)
        r.tag[i] = (short)(a.tag[i] > b.tag[i] ? a.tag[i] : b.tag[i]);
    return r;
}

// ---------------------------------------------------------------------------
// Function pointers
// ---------------------------------------------------------------------------
typedef float (*unary_fn)(float);
typedef Vec3 (*vec_fn)(Vec3, float);

__device__ float op_square(float x) { return x * x; }
__device__ float op_negate(float x) { return -x; }
__device__ float op_halve(float x) { return 0.5f * x; }
__device__ float op_clamp01(float x) { return fminf(fmaxf(x, 0.0f), 1.0f); }

// One aggregate holds both tables. (With two separate function-pointer globals, nvcc 13 -G
// for sm_100a emitted them in a run-to-run varying order.)
struct OpTables {
    unary_fn unary[4];
    vec_fn vec;
};
__device__ OpTables g_ops = {{op_square, op_negate, op_halve, op_clamp01}, vscale};

__device__ __noinline__ float apply_chain(const int *ops, int nops, float x)
{
    for (int i = 0; i < nops; ++i)
        x = g_ops.unary[ops[i] & 3](x);
    return x;
}

// ---------------------------------------------------------------------------
// Recursion
// ---------------------------------------------------------------------------
__device__ __noinline__ unsigned long long fib_rec(int n)
{
    return n < 2 ? (unsigned long long)n : fib_rec(n - 1) + fib_rec(n - 2);
}

__device__ bool is_odd(unsigned n);
__device__ __noinline__ bool is_even(unsigned n) { return n == 0 ? true : is_odd(n - 1); }
__device__ __noinline__ bool is_odd(unsigned n) { return n == 0 ? false : is_even(n - 1); }

// recursive quicksort on a small per-thread local array (forces .local memory)
__device__ __noinline__ void qsort_local(int *a, int lo, int hi)
{
    if (lo >= hi)
        return;
    int p = a[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
        while (a[i] < p) ++i;
        while (a[j] > p) --j;
        if (i <= j) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
            ++i;
            --j;
        }
    }
    qsort_local(a, lo, j);
    qsort_local(a, i, hi);
}

// ---------------------------------------------------------------------------
// Virtual functions
// ---------------------------------------------------------------------------
struct Shape {
    __device__ virtual float area() const = 0;
    __device__ virtual int sides() const { return 0; }
    __device__ virtual ~Shape() {}
};

struct Circle : Shape {
    float r;
    __device__ explicit Circle(float r_) : r(r_) {}
    __device__ float area() const override { return 3.14159265f * r * r; }
};

struct Rect : Shape {
    float w, h;
    __device__ Rect(float w_, float h_) : w(w_), h(h_) {}
    __device__ float area() const override { return w * h; }
    __device__ int sides() const override { return 4; }
};

__device__ __noinline__ float shape_metric(const Shape &s) { return s.area() + (float)s.sides(); }

#ifdef __CUDACC_RDC__
// Defined in another translation unit when linking with -rdc=true.
extern __device__ float external_shading(Vec3 n, float t);
extern __device__ int g_external_counter;
#endif

// ---------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------
extern "C" __global__ void trace_spheres(const Ray *__restrict__ rays, int nrays,
                                         const Sphere *__restrict__ spheres, int nspheres,
                                         Hit *__restrict__ hits, float *__restrict__ shade)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nrays)
        return;
    Ray r = rays[i];
    Hit best{};
    best.t = 1e30f;
    for (int s = 0; s < nspheres; ++s) {
        Hit h = intersect(r, spheres[s]);
        if (h.valid && h.t < best.t)
            best = h;
    }
    hits[i] = best;
    Vec3 tangent = vcross(best.normal, r.dir);
    Vec3 scaled = g_ops.vec(tangent, best.t);
    float sh = best.valid ? vdot(scaled, scaled) : 0.0f;
#ifdef __CUDACC_RDC__
    sh += external_shading(best.normal, best.t);
    atomicAdd(&g_external_counter, 1);
#endif
    shade[i] = sh;
}

extern "C" __global__ void apply_ops(float *data, int n, const int *ops, int nops)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unary_fn direct = (i & 1) ? op_square : op_halve;
        data[i] = direct(apply_chain(ops, nops, data[i]));
    }
}

extern "C" __global__ void recursion_demo(unsigned long long *fib_out, int *parity_out,
                                          int *sorted_out, int seed)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    fib_out[tid] = fib_rec((tid & 15) + 2);
    parity_out[tid] = is_even((unsigned)tid) ? 1 : 0;

    int local[24];
    unsigned x = (unsigned)(seed ^ tid) * 2654435761u;
    for (int k = 0; k < 24; ++k) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        local[k] = (int)(x % 1000u);
    }
    qsort_local(local, 0, 23);
    for (int k = 0; k < 24; ++k)
        sorted_out[tid * 24 + k] = local[k];
}

extern "C" __global__ void packets_and_shapes(const Packet *in, Packet *out, float *areas, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 >= n)
        return;
    out[i] = merge_packets(in[i], in[i + 1]);

    // construct polymorphic objects in local storage
    alignas(Circle) unsigned char buf_c[sizeof(Circle)];
    alignas(Rect) unsigned char buf_r[sizeof(Rect)];
    Shape *s;
    if (i & 1)
        s = new (buf_c) Circle((float)in[i].weight);
    else
        s = new (buf_r) Rect((float)in[i].weight, (float)(in[i].id & 0xff));
    areas[i] = shape_metric(*s);
    s->~Shape();
}

extern "C" __global__ void debug_print(const float *vals, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (i % 64) == 0) {
        Vec3 v{vals[i], i + 1 < n ? vals[i + 1] : 0.0f, 0.0f};
        printf("block %d thread %u: v=(%f, %f) dot=%e id=%lld ptr=%p %s\n", blockIdx.x,
               threadIdx.x, v.x, v.y, (double)vdot(v, v), (long long)i, (const void *)(vals + i),
               i == 0 ? "first" : "later");
    }
    if (i == 0)
        printf("total=%d\n", n);
}

// calls.cu: kernels that call non-inlined device functions (recursion-free call chains).
//
// Part of the register-estimate validation set (corpus/registers-validation/README.md).
// The callees are __noinline__, so ptxas compiles real calls: arguments and results through
// the ABI, values live across a call in callee-saved registers. The kernels vary the number
// of values live across the calls, the depth of the chain and the argument types.
#include <cstdint>

struct Vec3 {
  float x, y, z;
};
struct Ray {
  Vec3 origin, direction;
  float tmin, tmax;
};
struct Hit {
  float t;
  int id;
  Vec3 normal;
};

__device__ __noinline__ float polynomial(float x, float a, float b, float c, float d) {
  return fmaf(fmaf(fmaf(a, x, b), x, c), x, d);
}

__device__ __noinline__ float smoothstep_clamped(float edge0, float edge1, float x) {
  float t = fminf(fmaxf((x - edge0) / (edge1 - edge0), 0.0f), 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

__device__ __noinline__ double horner_double(const double* coefficients, int degree, double x) {
  double r = coefficients[degree];
  for (int i = degree - 1; i >= 0; --i) r = fma(r, x, coefficients[i]);
  return r;
}

__device__ __noinline__ Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

__device__ __noinline__ float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

__device__ __noinline__ Vec3 normalize(Vec3 v) {
  float inv = rsqrtf(dot(v, v));
  return {v.x * inv, v.y * inv, v.z * inv};
}

// Möller–Trumbore ray/triangle intersection, calling cross and dot.
__device__ __noinline__ bool intersect_triangle(const Ray& ray, Vec3 v0, Vec3 v1, Vec3 v2, float& t) {
  Vec3 e1 = {v1.x - v0.x, v1.y - v0.y, v1.z - v0.z};
  Vec3 e2 = {v2.x - v0.x, v2.y - v0.y, v2.z - v0.z};
  Vec3 p = cross(ray.direction, e2);
  float det = dot(e1, p);
  if (fabsf(det) < 1e-8f) return false;
  float inv = 1.0f / det;
  Vec3 s = {ray.origin.x - v0.x, ray.origin.y - v0.y, ray.origin.z - v0.z};
  float u = dot(s, p) * inv;
  if (u < 0.0f || u > 1.0f) return false;
  Vec3 q = cross(s, e1);
  float v = dot(ray.direction, q) * inv;
  if (v < 0.0f || u + v > 1.0f) return false;
  t = dot(e2, q) * inv;
  return t > ray.tmin && t < ray.tmax;
}

__device__ __noinline__ Hit trace(const Ray& ray, const float* __restrict__ vertices, int triangles) {
  Hit hit{ray.tmax, -1, {0, 0, 0}};
  for (int i = 0; i < triangles; ++i) {
    const float* v = vertices + 9 * i;
    Vec3 a{v[0], v[1], v[2]}, b{v[3], v[4], v[5]}, c{v[6], v[7], v[8]};
    float t;
    if (intersect_triangle(ray, a, b, c, t) && t < hit.t) {
      hit.t = t;
      hit.id = i;
      hit.normal = normalize(cross({b.x - a.x, b.y - a.y, b.z - a.z}, {c.x - a.x, c.y - a.y, c.z - a.z}));
    }
  }
  return hit;
}

__device__ __noinline__ std::uint32_t hash32(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

__device__ __noinline__ std::uint64_t mix64(std::uint64_t a, std::uint64_t b) {
  std::uint64_t x = a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
  return x * 0xff51afd7ed558ccdULL;
}

// A chain of calls three deep, each level adding work.
__device__ __noinline__ float level3(float x, float y) { return polynomial(x, y, 0.5f, -1.0f, 2.0f) * y; }
__device__ __noinline__ float level2(float x, float y, float z) { return level3(x + z, y) + level3(y, z); }
__device__ __noinline__ float level1(float x, float y, float z, float w) {
  return level2(x, y, w) * smoothstep_clamped(0.0f, 1.0f, z) + level2(w, x, y);
}

__global__ void calls_polynomial(const float* __restrict__ x, float* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = polynomial(x[i], 1.0f, -2.0f, 3.0f, -4.0f);
}

// Many values live across the calls: the callee-saved registers fill up.
template <int Live>
__global__ void calls_live_across(const float* __restrict__ x, float* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float keep[Live];
#pragma unroll
  for (int k = 0; k < Live; ++k) keep[k] = x[i + k * n];
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < Live; ++k) s += smoothstep_clamped(-1.0f, 1.0f, keep[k] * s + 0.5f);
#pragma unroll
  for (int k = 0; k < Live; ++k) s = fmaf(keep[k], s, keep[(k + 1) % Live]);
  y[i] = s;
}

__global__ void calls_chain(const float4* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 v = in[i];
  out[i] = level1(v.x, v.y, v.z, v.w);
}

__global__ void calls_horner(const double* __restrict__ coefficients, const double* __restrict__ x,
                             double* __restrict__ y, int degree, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = horner_double(coefficients, degree, x[i]) - horner_double(coefficients, degree / 2, -x[i]);
}

__global__ void calls_raytrace(const float* __restrict__ vertices, int triangles, Vec3 eye, float4* __restrict__ image,
                               int width, int height) {
  int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= width || py >= height) return;
  Vec3 dir = normalize({(px + 0.5f) / width - 0.5f, (py + 0.5f) / height - 0.5f, 1.0f});
  Ray ray{eye, dir, 1e-3f, 1e30f};
  Hit hit = trace(ray, vertices, triangles);
  float shade = hit.id >= 0 ? fmaxf(0.0f, dot(hit.normal, normalize({1.0f, 1.0f, -1.0f}))) : 0.0f;
  image[py * width + px] = make_float4(shade, hit.t, static_cast<float>(hit.id), 1.0f);
}

__global__ void calls_hash_table(const std::uint32_t* __restrict__ keys, std::uint32_t* __restrict__ table,
                                 int capacity, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  std::uint32_t key = keys[i];
  std::uint32_t slot = hash32(key) & (capacity - 1);
  for (int probe = 0; probe < capacity; ++probe) {
    std::uint32_t prev = atomicCAS(table + slot, 0xffffffffu, key);
    if (prev == 0xffffffffu || prev == key) return;
    slot = (slot + hash32(probe + 1)) & (capacity - 1);
  }
}

__global__ void calls_mix64(const std::uint64_t* __restrict__ a, std::uint64_t* __restrict__ out, int n, int rounds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  std::uint64_t h0 = a[i], h1 = a[i] * 3, h2 = ~a[i], h3 = a[i] >> 7;
  for (int r = 0; r < rounds; ++r) {
    h0 = mix64(h0, h1);
    h1 = mix64(h1, h2);
    h2 = mix64(h2, h3);
    h3 = mix64(h3, h0);
  }
  out[i] = h0 ^ h1 ^ h2 ^ h3;
}

// A call inside a shared-memory loop with barriers.
template <int Tile>
__global__ void __launch_bounds__(Tile) calls_in_tiled_loop(const float* __restrict__ x, float* __restrict__ y, int n) {
  __shared__ float tile[Tile];
  float acc = 0.0f;
  for (int base = 0; base < n; base += Tile) {
    tile[threadIdx.x] = base + threadIdx.x < n ? x[base + threadIdx.x] : 0.0f;
    __syncthreads();
    for (int k = 0; k < Tile; k += 4)
      acc += polynomial(tile[k], tile[k + 1], tile[k + 2], tile[k + 3], acc);
    __syncthreads();
  }
  y[blockIdx.x * Tile + threadIdx.x] = acc;
}

// Indirect calls through a table of activation functions.
__device__ __noinline__ float relu_clip(float x, float lo, float hi) { return fminf(fmaxf(x, lo), hi); }
__device__ __noinline__ float gelu_tanh(float x, float, float) {
  return 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
}
__device__ float (*const kActivations[3])(float, float, float) = {smoothstep_clamped, relu_clip, gelu_tanh};

__global__ void calls_indirect(const float* __restrict__ x, const int* __restrict__ which, float* __restrict__ y,
                               int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = kActivations[which[i] % 3](x[i], -1.0f, 1.0f);
}

template __global__ void calls_live_across<4>(const float*, float*, int);
template __global__ void calls_live_across<12>(const float*, float*, int);
template __global__ void calls_live_across<24>(const float*, float*, int);
template __global__ void calls_live_across<40>(const float*, float*, int);
template __global__ void calls_in_tiled_loop<128>(const float*, float*, int);

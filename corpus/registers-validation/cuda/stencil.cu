// stencil.cu: 2D and 3D stencils, with register blocking along one axis.
//
// Part of the register-estimate validation set (corpus/registers-validation/README.md).
// The 2D kernels stage a halo tile in shared memory and let each thread compute Rows outputs
// of a column; the 3D kernels march along z keeping a queue of 2*Radius+1 planes of their
// column in registers (the classic "z-marching" scheme) and the current plane in shared memory.

// The stencil weights. Not in an anonymous namespace: nvcc names such a variable after the
// compilation (a hash that changes from run to run), and the set must regenerate identically.
__constant__ float kCoefficients[9];

template <typename T, int Radius, int BlockX, int BlockY, int Rows>
__global__ void __launch_bounds__(BlockX * BlockY)
    stencil2d_star(const T* __restrict__ in, T* __restrict__ out, int nx, int ny) {
  __shared__ T tile[BlockY * Rows + 2 * Radius][BlockX + 2 * Radius];
  const int gx = blockIdx.x * BlockX + threadIdx.x;
  const int gy0 = blockIdx.y * BlockY * Rows;
  for (int y = threadIdx.y; y < BlockY * Rows + 2 * Radius; y += BlockY)
    for (int x = threadIdx.x; x < BlockX + 2 * Radius; x += BlockX) {
      int sx = min(max(int(blockIdx.x * BlockX) + x - Radius, 0), nx - 1);
      int sy = min(max(gy0 + y - Radius, 0), ny - 1);
      tile[y][x] = in[static_cast<size_t>(sy) * nx + sx];
    }
  __syncthreads();
  if (gx >= nx) return;
  T result[Rows];
#pragma unroll
  for (int r = 0; r < Rows; ++r) {
    const int ty = threadIdx.y * Rows + r + Radius;
    const int tx = threadIdx.x + Radius;
    T v = T(kCoefficients[0]) * tile[ty][tx];
#pragma unroll
    for (int k = 1; k <= Radius; ++k)
      v += T(kCoefficients[k]) * (tile[ty][tx - k] + tile[ty][tx + k] + tile[ty - k][tx] + tile[ty + k][tx]);
    result[r] = v;
  }
#pragma unroll
  for (int r = 0; r < Rows; ++r) {
    int gy = gy0 + threadIdx.y * Rows + r;
    if (gy < ny) out[static_cast<size_t>(gy) * nx + gx] = result[r];
  }
}

// A 3x3 or 5x5 box filter with arbitrary weights (a convolution), each thread Cols outputs of a row.
template <int Size, int Cols>
__global__ void __launch_bounds__(256)
    stencil2d_box(const float* __restrict__ in, float* __restrict__ out, const float* __restrict__ weights, int nx,
                  int ny) {
  constexpr int R = Size / 2;
  float w[Size * Size];
#pragma unroll
  for (int i = 0; i < Size * Size; ++i) w[i] = weights[i];
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * Cols;
  if (y >= ny || x0 >= nx) return;
  float window[Size][Cols + Size - 1];
#pragma unroll
  for (int dy = 0; dy < Size; ++dy)
#pragma unroll
    for (int dx = 0; dx < Cols + Size - 1; ++dx) {
      int sy = min(max(y + dy - R, 0), ny - 1);
      int sx = min(max(x0 + dx - R, 0), nx - 1);
      window[dy][dx] = __ldg(in + static_cast<size_t>(sy) * nx + sx);
    }
#pragma unroll
  for (int c = 0; c < Cols; ++c) {
    float v = 0.0f;
#pragma unroll
    for (int dy = 0; dy < Size; ++dy)
#pragma unroll
      for (int dx = 0; dx < Size; ++dx) v = fmaf(w[dy * Size + dx], window[dy][c + dx], v);
    if (x0 + c < nx) out[static_cast<size_t>(y) * nx + x0 + c] = v;
  }
}

template <typename T, int Radius, int BlockX, int BlockY>
__global__ void __launch_bounds__(BlockX * BlockY)
    stencil3d_zmarch(const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz) {
  __shared__ T plane[BlockY + 2 * Radius][BlockX + 2 * Radius];
  const int gx = blockIdx.x * BlockX + threadIdx.x;
  const int gy = blockIdx.y * BlockY + threadIdx.y;
  const int cx = min(gx, nx - 1), cy = min(gy, ny - 1);
  const size_t strideZ = static_cast<size_t>(nx) * ny;
  const T* column = in + static_cast<size_t>(cy) * nx + cx;
  T queue[2 * Radius + 1];
#pragma unroll
  for (int k = 0; k < 2 * Radius; ++k) queue[k + 1] = column[static_cast<size_t>(min(k, nz - 1)) * strideZ];
  for (int z = 0; z < nz; ++z) {
#pragma unroll
    for (int k = 0; k < 2 * Radius; ++k) queue[k] = queue[k + 1];
    queue[2 * Radius] = column[static_cast<size_t>(min(z + Radius, nz - 1)) * strideZ];
    __syncthreads();
    for (int y = threadIdx.y; y < BlockY + 2 * Radius; y += BlockY)
      for (int x = threadIdx.x; x < BlockX + 2 * Radius; x += BlockX) {
        int sx = min(max(int(blockIdx.x * BlockX) + x - Radius, 0), nx - 1);
        int sy = min(max(int(blockIdx.y * BlockY) + y - Radius, 0), ny - 1);
        plane[y][x] = in[static_cast<size_t>(z) * strideZ + static_cast<size_t>(sy) * nx + sx];
      }
    __syncthreads();
    const int tx = threadIdx.x + Radius, ty = threadIdx.y + Radius;
    T v = T(kCoefficients[0]) * queue[Radius];
#pragma unroll
    for (int k = 1; k <= Radius; ++k)
      v += T(kCoefficients[k]) * (queue[Radius - k] + queue[Radius + k] + plane[ty][tx - k] + plane[ty][tx + k] +
                                  plane[ty - k][tx] + plane[ty + k][tx]);
    if (gx < nx && gy < ny) out[static_cast<size_t>(z) * strideZ + static_cast<size_t>(gy) * nx + gx] = v;
  }
}

// 27-point 3D stencil, every value from global memory, Outputs consecutive z per thread.
template <int Outputs>
__global__ void __launch_bounds__(128)
    stencil3d_box27(const float* __restrict__ in, float* __restrict__ out, int nx, int ny, int nz, float c0,
                    float c1, float c2, float c3) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int z0 = blockIdx.z * Outputs + 1;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  const size_t sz = static_cast<size_t>(nx) * ny;
  float planes[Outputs + 2][9];
#pragma unroll
  for (int p = 0; p < Outputs + 2; ++p) {
    int z = min(z0 - 1 + p, nz - 1);
#pragma unroll
    for (int j = 0; j < 9; ++j)
      planes[p][j] = __ldg(in + z * sz + static_cast<size_t>(y + j / 3 - 1) * nx + x + j % 3 - 1);
  }
#pragma unroll
  for (int o = 0; o < Outputs; ++o) {
    if (z0 + o >= nz - 1) break;
    float center = planes[o + 1][4];
    float faces = planes[o][4] + planes[o + 2][4] + planes[o + 1][1] + planes[o + 1][3] + planes[o + 1][5] +
                  planes[o + 1][7];
    float edges = planes[o + 1][0] + planes[o + 1][2] + planes[o + 1][6] + planes[o + 1][8] + planes[o][1] +
                  planes[o][3] + planes[o][5] + planes[o][7] + planes[o + 2][1] + planes[o + 2][3] +
                  planes[o + 2][5] + planes[o + 2][7];
    float corners = planes[o][0] + planes[o][2] + planes[o][6] + planes[o][8] + planes[o + 2][0] + planes[o + 2][2] +
                    planes[o + 2][6] + planes[o + 2][8];
    out[(z0 + o) * sz + static_cast<size_t>(y) * nx + x] = c0 * center + c1 * faces + c2 * edges + c3 * corners;
  }
}

// Jacobi iteration of the 2D heat equation with a convergence residual reduced per block.
template <int Iterations>
__global__ void __launch_bounds__(256)
    heat2d_jacobi(const float* __restrict__ in, float* __restrict__ out, float* __restrict__ residual, int nx, int ny,
                  float alpha) {
  __shared__ float a[18][18], b[18][18];
  __shared__ float blockResidual[8];
  const int x = blockIdx.x * 16 + threadIdx.x % 16, y = blockIdx.y * 16 + threadIdx.x / 16;
  for (int i = threadIdx.x; i < 18 * 18; i += 256) {
    int sx = min(max(int(blockIdx.x * 16) + i % 18 - 1, 0), nx - 1);
    int sy = min(max(int(blockIdx.y * 16) + i / 18 - 1, 0), ny - 1);
    a[i / 18][i % 18] = b[i / 18][i % 18] = in[static_cast<size_t>(sy) * nx + sx];
  }
  __syncthreads();
  const int tx = threadIdx.x % 16 + 1, ty = threadIdx.x / 16 + 1;
  float diff = 0.0f;
#pragma unroll
  for (int it = 0; it < Iterations; ++it) {
    float (*src)[18] = (it % 2 == 0) ? a : b;
    float (*dst)[18] = (it % 2 == 0) ? b : a;
    float v = src[ty][tx] + alpha * (src[ty - 1][tx] + src[ty + 1][tx] + src[ty][tx - 1] + src[ty][tx + 1] -
                                     4.0f * src[ty][tx]);
    diff = fabsf(v - src[ty][tx]);
    dst[ty][tx] = v;
    __syncthreads();
  }
  float (*last)[18] = (Iterations % 2 == 0) ? a : b;
  if (x < nx && y < ny) out[static_cast<size_t>(y) * nx + x] = last[ty][tx];
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) diff = fmaxf(diff, __shfl_xor_sync(0xffffffffu, diff, offset));
  if (threadIdx.x % 32 == 0) blockResidual[threadIdx.x / 32] = diff;
  __syncthreads();
  if (threadIdx.x == 0) {
    float m = 0.0f;
    for (int w = 0; w < 8; ++w) m = fmaxf(m, blockResidual[w]);
    atomicMax(reinterpret_cast<int*>(residual), __float_as_int(m));
  }
}

template __global__ void stencil2d_star<float, 1, 32, 8, 1>(const float*, float*, int, int);
template __global__ void stencil2d_star<float, 2, 32, 8, 4>(const float*, float*, int, int);
template __global__ void stencil2d_star<float, 4, 32, 8, 8>(const float*, float*, int, int);
template __global__ void stencil2d_star<double, 1, 32, 4, 4>(const double*, double*, int, int);
template __global__ void stencil2d_star<double, 4, 16, 8, 8>(const double*, double*, int, int);
template __global__ void stencil2d_box<3, 4>(const float*, float*, const float*, int, int);
template __global__ void stencil2d_box<3, 8>(const float*, float*, const float*, int, int);
template __global__ void stencil2d_box<5, 4>(const float*, float*, const float*, int, int);
template __global__ void stencil2d_box<5, 8>(const float*, float*, const float*, int, int);
template __global__ void stencil2d_box<7, 4>(const float*, float*, const float*, int, int);
template __global__ void stencil3d_zmarch<float, 1, 32, 4>(const float*, float*, int, int, int);
template __global__ void stencil3d_zmarch<float, 2, 32, 8>(const float*, float*, int, int, int);
template __global__ void stencil3d_zmarch<float, 4, 32, 8>(const float*, float*, int, int, int);
template __global__ void stencil3d_zmarch<double, 2, 32, 4>(const double*, double*, int, int, int);
template __global__ void stencil3d_zmarch<double, 4, 16, 16>(const double*, double*, int, int, int);
template __global__ void stencil3d_box27<1>(const float*, float*, int, int, int, float, float, float, float);
template __global__ void stencil3d_box27<4>(const float*, float*, int, int, int, float, float, float, float);
template __global__ void stencil3d_box27<8>(const float*, float*, int, int, int, float, float, float, float);
template __global__ void heat2d_jacobi<1>(const float*, float*, float*, int, int, float);
template __global__ void heat2d_jacobi<8>(const float*, float*, float*, int, int, float);

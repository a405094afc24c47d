// cub.cu: CUB device algorithms instantiated for several key, value and sample types.
//
// Part of the register-estimate validation set (corpus/registers-validation/README.md): every
// host function below calls one cub::Device* algorithm, which makes nvcc emit that algorithm's
// kernels (upsweep, scan, downsweep, onesweep, single-tile, init and sweep kernels) for the
// target. The host code is never run; only the PTX of those kernels matters.
#include <cub/cub.cuh>
#include <cuda_fp16.h>
#include <cstdint>

namespace validation {

// Radix sort: keys only, keys with values, descending, for 32- and 64-bit keys.
template <typename Key>
void sortKeys(void* temp, size_t& bytes, const Key* in, Key* out, int n, cudaStream_t stream) {
  cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, n, 0, int(sizeof(Key) * 8), stream);
}

template <typename Key, typename Value>
void sortPairs(void* temp, size_t& bytes, const Key* keysIn, Key* keysOut, const Value* valuesIn, Value* valuesOut,
               int n, cudaStream_t stream) {
  cub::DeviceRadixSort::SortPairs(temp, bytes, keysIn, keysOut, valuesIn, valuesOut, n, 0, int(sizeof(Key) * 8),
                                  stream);
}

template <typename Key, typename Value>
void sortPairsDescending(void* temp, size_t& bytes, const Key* keysIn, Key* keysOut, const Value* valuesIn,
                         Value* valuesOut, int n, cudaStream_t stream) {
  cub::DeviceRadixSort::SortPairsDescending(temp, bytes, keysIn, keysOut, valuesIn, valuesOut, n, 0,
                                            int(sizeof(Key) * 8), stream);
}

template void sortKeys<std::uint32_t>(void*, size_t&, const std::uint32_t*, std::uint32_t*, int, cudaStream_t);
template void sortKeys<std::uint64_t>(void*, size_t&, const std::uint64_t*, std::uint64_t*, int, cudaStream_t);
template void sortKeys<float>(void*, size_t&, const float*, float*, int, cudaStream_t);
template void sortPairs<std::uint32_t, std::uint32_t>(void*, size_t&, const std::uint32_t*, std::uint32_t*,
                                                      const std::uint32_t*, std::uint32_t*, int, cudaStream_t);
template void sortPairs<float, int>(void*, size_t&, const float*, float*, const int*, int*, int, cudaStream_t);
template void sortPairsDescending<std::uint64_t, double>(void*, size_t&, const std::uint64_t*, std::uint64_t*,
                                                         const double*, double*, int, cudaStream_t);

// Scans.
void inclusiveSumFloat(void* temp, size_t& bytes, const float* in, float* out, int n, cudaStream_t stream) {
  cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n, stream);
}
void exclusiveSumInt(void* temp, size_t& bytes, const int* in, int* out, int n, cudaStream_t stream) {
  cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, stream);
}
void inclusiveMaxDouble(void* temp, size_t& bytes, const double* in, double* out, int n, cudaStream_t stream) {
  cub::DeviceScan::InclusiveScan(temp, bytes, in, out, cuda::maximum<>{}, n, stream);
}
void exclusiveSumByKey(void* temp, size_t& bytes, const int* keys, const float* in, float* out, int n,
                       cudaStream_t stream) {
  cub::DeviceScan::ExclusiveSumByKey(temp, bytes, keys, in, out, n, cuda::std::equal_to<>{}, stream);
}

// Reductions.
void sumFloat(void* temp, size_t& bytes, const float* in, float* out, int n, cudaStream_t stream) {
  cub::DeviceReduce::Sum(temp, bytes, in, out, n, stream);
}
void maxInt64(void* temp, size_t& bytes, const std::int64_t* in, std::int64_t* out, int n, cudaStream_t stream) {
  cub::DeviceReduce::Max(temp, bytes, in, out, n, stream);
}
void sumDouble(void* temp, size_t& bytes, const double* in, double* out, int n, cudaStream_t stream) {
  cub::DeviceReduce::Reduce(temp, bytes, in, out, n, cuda::std::plus<>{}, 0.0, stream);
}
void segmentedSum(void* temp, size_t& bytes, const float* in, float* out, int segments, const int* offsets,
                  cudaStream_t stream) {
  cub::DeviceSegmentedReduce::Sum(temp, bytes, in, out, segments, offsets, offsets + 1, stream);
}

// Histograms.
void histogramBytes(void* temp, size_t& bytes, const std::uint8_t* samples, int* histogram, int n,
                    cudaStream_t stream) {
  cub::DeviceHistogram::HistogramEven(temp, bytes, samples, histogram, 257, 0, 256, n, stream);
}
void histogramRgba(void* temp, size_t& bytes, const std::uint8_t* pixels, int* histograms[3], int n,
                   cudaStream_t stream) {
  int levels[3] = {257, 257, 257};
  int lower[3] = {0, 0, 0};
  int upper[3] = {256, 256, 256};
  cub::DeviceHistogram::MultiHistogramEven<4, 3>(temp, bytes, pixels, histograms, levels, lower, upper, n, stream);
}

// Selection and partition.
struct IsPositive {
  __host__ __device__ bool operator()(float x) const { return x > 0.0f; }
};
void selectIf(void* temp, size_t& bytes, const float* in, float* out, int* count, int n, cudaStream_t stream) {
  cub::DeviceSelect::If(temp, bytes, in, out, count, n, IsPositive{}, stream);
}
void selectFlagged(void* temp, size_t& bytes, const int* in, const char* flags, int* out, int* count, int n,
                   cudaStream_t stream) {
  cub::DeviceSelect::Flagged(temp, bytes, in, flags, out, count, n, stream);
}
void selectUnique(void* temp, size_t& bytes, const std::uint64_t* in, std::uint64_t* out, int* count, int n,
                  cudaStream_t stream) {
  cub::DeviceSelect::Unique(temp, bytes, in, out, count, n, stream);
}
void partitionIf(void* temp, size_t& bytes, const float* in, float* out, int* count, int n, cudaStream_t stream) {
  cub::DevicePartition::If(temp, bytes, in, out, count, n, IsPositive{}, stream);
}
}  // namespace validation

// cub_device.cu: CUB device-wide algorithms (CCCL 3.0, CUDA 13). Only host code is written
// here; the kernels in the PTX are CUB's own, instantiated by these calls:
//
//   * cub::DeviceReduce::Sum (float) and cub::DeviceReduce::Max (int)
//   * cub::DeviceScan::InclusiveSum (int) and cub::DeviceScan::ExclusiveSum (unsigned)
//   * cub::DeviceRadixSort::SortKeys (uint32_t keys)
//
// Each wrapper follows the usual two-call protocol: query the temporary storage size,
// allocate it on the stream, run, free. Error handling returns the first failure.
// Only a few key/value types are instantiated, to keep the PTX small.
// Compiled for sm_80 and sm_90a.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

namespace {

// Runs `call(d_temp, bytes)` twice: once to size the scratch space, once to do the work.
template <typename Call>
cudaError_t with_temp_storage(cudaStream_t stream, Call call)
{
  size_t bytes = 0;
  cudaError_t err = call(nullptr, bytes);
  if (err != cudaSuccess) {
    return err;
  }
  void* d_temp = nullptr;
  err = cudaMallocAsync(&d_temp, bytes, stream);
  if (err != cudaSuccess) {
    return err;
  }
  err = call(d_temp, bytes);
  const cudaError_t free_err = cudaFreeAsync(d_temp, stream);
  return err != cudaSuccess ? err : free_err;
}

}  // namespace

// sum of n floats into *d_out
cudaError_t sum_floats(const float* d_in, float* d_out, int n, cudaStream_t stream)
{
  return with_temp_storage(stream, [&](void* tmp, size_t& bytes) {
    return cub::DeviceReduce::Sum(tmp, bytes, d_in, d_out, n, stream);
  });
}

// maximum of n ints into *d_out
cudaError_t max_ints(const int* d_in, int* d_out, int n, cudaStream_t stream)
{
  return with_temp_storage(stream, [&](void* tmp, size_t& bytes) {
    return cub::DeviceReduce::Max(tmp, bytes, d_in, d_out, n, stream);
  });
}

// inclusive prefix sum of n ints
cudaError_t prefix_sum_ints(const int* d_in, int* d_out, int n, cudaStream_t stream)
{
  return with_temp_storage(stream, [&](void* tmp, size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(tmp, bytes, d_in, d_out, n, stream);
  });
}

// exclusive prefix sum of n unsigned counts (e.g. bucket offsets)
cudaError_t offsets_from_counts(const unsigned* d_counts, unsigned* d_offsets, int n, cudaStream_t stream)
{
  return with_temp_storage(stream, [&](void* tmp, size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(tmp, bytes, d_counts, d_offsets, n, stream);
  });
}

// ascending sort of n 32-bit keys, all bits
cudaError_t sort_u32(const uint32_t* d_keys_in, uint32_t* d_keys_out, int n, cudaStream_t stream)
{
  return with_temp_storage(stream, [&](void* tmp, size_t& bytes) {
    return cub::DeviceRadixSort::SortKeys(tmp, bytes, d_keys_in, d_keys_out, n, 0, 32, stream);
  });
}

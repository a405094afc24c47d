// nvcc-flags: -arch=sm_90a
// Twin of im2col_channels.cu: 256 channels per pixel (two maps cover the 512).
// driver: not yet run (driver-verdicts.txt: im2col.channels_256 pending).
#include <cuda.h>

constexpr cuuint32_t kChannels = 512, kPixels = 128;

CUresult encodeActivations(CUtensorMap* map, void* nhwc) {
  cuuint64_t dims[4] = {kChannels, 32, 32, 8};
  cuuint64_t strides[3] = {kChannels * 2, kChannels * 2 * 32, kChannels * 2 * 32 * 32};
  int lower[2] = {-1, -1};
  int upper[2] = {-1, -1};
  cuuint32_t elementStrides[4] = {1, 1, 1, 1};
  return cuTensorMapEncodeIm2col(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, nhwc, dims, strides, lower, upper,
                                 kChannels / 2, kPixels, elementStrides,
                                 CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

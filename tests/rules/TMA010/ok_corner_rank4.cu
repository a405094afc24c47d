// nvcc-flags: -arch=sm_90a
// Twin of corner_rank4.cu: the offset within [-128, 127].
// driver: not yet run (driver-verdicts.txt: im2col.rank4_lower_minus128 pending).
#include <cuda.h>

CUresult encodeConvInput(CUtensorMap* map, void* nhwc) {
  cuuint64_t dims[4] = {64, 512, 512, 1};
  cuuint64_t strides[3] = {128, 128 * 512, 128 * 512 * 512};
  int lower[2] = {-100,
                  -1};
  int upper[2] = {-1, -1};
  cuuint32_t elementStrides[4] = {1, 1, 1, 1};
  return cuTensorMapEncodeIm2col(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, nhwc, dims, strides, lower, upper, 64,
                                 256, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

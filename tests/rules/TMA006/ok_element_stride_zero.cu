// nvcc-flags: -arch=sm_90a
// Twin of element_stride_zero.cu: all three entries given.
// driver 580.159.04 (H200): element strides of 1 encode (driver-verdicts.txt).
#include <cuda.h>

CUresult encodeVolume(CUtensorMap* map, void* volume) {
  cuuint64_t dims[3] = {64, 64, 64};
  cuuint64_t strides[2] = {64 * 4, 64 * 64 * 4};
  cuuint32_t box[3] = {16, 16, 16};
  cuuint32_t elementStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, volume, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

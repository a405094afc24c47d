// nvcc-flags: -arch=sm_90a
// Twin of nan_fill_uint8.cu: the zero fill for integer data.
// driver 580.159.04 (H200): the same map with FLOAT_OOB_FILL_NONE → CUDA_SUCCESS (driver-verdicts.txt).
#include <cuda.h>

CUresult encodeMask(CUtensorMap* map, unsigned char* mask) {
  cuuint64_t dims[2] = {256, 64};
  cuuint64_t strides[1] = {256};
  cuuint32_t box[2] = {16, 4};
  cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, mask, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

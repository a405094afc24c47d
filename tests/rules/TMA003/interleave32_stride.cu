// nvcc-flags: -arch=sm_90a
// TMA003 (a warning): with INTERLEAVE_32B the documentation requires strides that are multiples of 32
// bytes; 48 is only a multiple of 16.
// driver: not yet run (driver-verdicts.txt: tiled.interleave32_stride_48 pending).
#include <cuda.h>

CUresult encodeNC16HWC16(CUtensorMap* map, void* tensor) {
  cuuint64_t dims[3] = {16, 3, 64};
  cuuint64_t strides[2] = {48,  // expect: TMA003
                           48 * 64};
  cuuint32_t box[3] = {16, 3, 8};
  cuuint32_t elementStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, tensor, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// nvcc-flags: -arch=sm_90a
// Twin of interleave32_stride.cu: rows padded to 64 bytes.
// driver 580.159.04 (H200): INTERLEAVE_32B with 32-byte-multiple strides encodes (driver-verdicts.txt).
#include <cuda.h>

CUresult encodeNC16HWC16(CUtensorMap* map, void* tensor) {
  cuuint64_t dims[3] = {16, 3, 64};
  cuuint64_t strides[2] = {64,
                           64 * 64};
  cuuint32_t box[3] = {16, 3, 8};
  cuuint32_t elementStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, tensor, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

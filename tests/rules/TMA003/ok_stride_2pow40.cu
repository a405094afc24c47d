// nvcc-flags: -arch=sm_90a
// Twin of stride_2pow40.cu: 2^40 - 16 bytes, the largest stride allowed.
// driver: not yet run (driver-verdicts.txt: tiled.stride_2pow40_minus16 pending).
#include <cuda.h>

CUresult encodeSparse(CUtensorMap* map, void* base) {
  static constexpr cuuint64_t kStride = (cuuint64_t{1} << 40) - 16;
  cuuint64_t dims[2] = {256, 4};
  cuuint64_t strides[1] = {kStride};
  cuuint32_t box[2] = {16, 4};
  cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, base, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

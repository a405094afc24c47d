// nvcc-flags: -arch=sm_90a
// TMA006 (a warning): an element-stride array one entry short of the rank: its third entry is 0.
// driver: not yet run (driver-verdicts.txt: tiled.estride1_0 pending); the documentation forbids 0.
#include <cuda.h>

CUresult encodeVolume(CUtensorMap* map, void* volume) {
  cuuint64_t dims[3] = {64, 64, 64};
  cuuint64_t strides[2] = {64 * 4, 64 * 64 * 4};
  cuuint32_t box[3] = {16, 16, 16};
  cuuint32_t elementStrides[3] = {1, 1};  // expect: TMA006
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, volume, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// nvcc-flags: -arch=sm_90a
// TMA009 (a warning): the NaN fill on INT32 data, in code a build flag selects (`#ifdef USE_TMA`):
// host code under a condition the file cannot decide is checked, since some build compiles it.
// driver: not yet run (driver-verdicts.txt: tiled.nanfill_int32 pending); the documentation forbids it.
#include <cuda.h>

#ifdef USE_TMA
CUresult encodeIndices(CUtensorMap* map, int* indices) {
  cuuint64_t dims[2] = {256, 64};
  cuuint64_t strides[1] = {256 * sizeof(int)};
  cuuint32_t box[2] = {32, 8};
  cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, indices, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);  // expect: TMA009
}
#endif

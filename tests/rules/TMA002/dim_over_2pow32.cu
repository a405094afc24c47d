// nvcc-flags: -arch=sm_90a
// TMA002 (a warning): a flattened dimension of 2^32 + 1 elements; the documentation allows at most 2^32.
// driver: not yet run (driver-verdicts.txt: tiled.dim1_2pow32_plus1 pending).
#include <cuda.h>

#define ROWS ((1ull << 32) + 1)

CUresult encodeFlat(CUtensorMap* map, void* tensor) {
  cuuint64_t dims[] = {256, ROWS};  // expect: TMA002
  cuuint64_t strides[] = {256};
  cuuint32_t box[] = {256, 16};
  cuuint32_t elementStrides[] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, tensor, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

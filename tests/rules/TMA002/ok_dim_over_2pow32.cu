// nvcc-flags: -arch=sm_90a
// Twin of dim_over_2pow32.cu: the dimension split in two, each within 2^32.
// driver: not yet run (driver-verdicts.txt: tiled.dim1_2pow32 pending).
#include <cuda.h>

#define ROWS (1ull << 16)

CUresult encodeFlat(CUtensorMap* map, void* tensor) {
  cuuint64_t dims[] = {256, ROWS, ROWS + 1};
  cuuint64_t strides[] = {256, 256 * ROWS};
  cuuint32_t box[] = {256, 16, 1};
  cuuint32_t elementStrides[] = {1, 1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, tensor, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// nvcc-flags: -arch=sm_90a
// Twin of box_257.cu: 256 rows.
// driver 580.159.04 (H200): boxDim[1] = 256 → CUDA_SUCCESS (driver-verdicts.txt).
#include <cuda.h>

#define BLOCK_M 256
#define BLOCK_K 64

CUresult encodeTile(CUtensorMap* map, void* a, cuuint64_t k, cuuint64_t m) {
  cuuint64_t dims[2] = {k, m};
  cuuint64_t strides[1] = {k * 2};
  cuuint32_t box[2] = {BLOCK_K, BLOCK_M};
  cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, a, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

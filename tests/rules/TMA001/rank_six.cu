// nvcc-flags: -arch=sm_90a
// TMA001: a tiled tensor map of rank 6; TMA copies have at most 5 dimensions.
// driver 580.159.04 (H200): tensorRank 6 → CUDA_ERROR_INVALID_VALUE (driver-verdicts.txt: tiled.rank6).
#include <cuda.h>

CUresult encodeRank6(CUtensorMap* map, void* tensor) {
  const cuuint64_t dims[6] = {16, 2, 2, 2, 2, 2};
  const cuuint64_t strides[5] = {16, 32, 64, 128, 256};
  const cuuint32_t box[6] = {16, 1, 1, 1, 1, 1};
  const cuuint32_t elementStrides[6] = {1, 1, 1, 1, 1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 6, tensor, dims, strides, box,  // expect: TMA001 at "6, tensor"
                                elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

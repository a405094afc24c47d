// nvcc-flags: -arch=sm_90a
// Twin of rank_six.cu: the two outermost dimensions folded into one, rank 5.
// driver 580.159.04 (H200): a rank-5 map encodes (driver-verdicts.txt: tiled.rank5, pending a run).
#include <cuda.h>

CUresult encodeRank5(CUtensorMap* map, void* tensor) {
  const cuuint64_t dims[5] = {16, 2, 2, 2, 4};
  const cuuint64_t strides[4] = {16, 32, 64, 128};
  const cuuint32_t box[5] = {16, 1, 1, 1, 1};
  const cuuint32_t elementStrides[5] = {1, 1, 1, 1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 5, tensor, dims, strides, box,
                                elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// nvcc-flags: -arch=sm_90a
// Twin of interleave_rank_two.cu: the same tensor as three dimensions {C, W, H}.
// driver 580.159.04 (H200): INTERLEAVE_32B + SWIZZLE_32B at rank 3 → CUDA_SUCCESS (driver-verdicts.txt).
#include <cuda.h>

constexpr cuuint32_t kRank = 3;

CUresult encodeInterleaved(CUtensorMap* map, void* tensor) {
  cuuint64_t dims[kRank] = {16, 4, 4};
  cuuint64_t strides[kRank - 1] = {32, 128};
  cuuint32_t box[kRank] = {16, 4, 4};
  cuuint32_t elementStrides[kRank] = {1, 1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, kRank, tensor, dims, strides, box,
                                elementStrides, CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

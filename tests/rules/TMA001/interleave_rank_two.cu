// nvcc-flags: -arch=sm_90a
// TMA001: a 32-byte interleaved layout needs at least 3 dimensions; this map has 2.
// driver 580.159.04 (H200): INTERLEAVE_32B at rank 2 → CUDA_ERROR_INVALID_VALUE (driver-verdicts.txt).
#include <cuda.h>

constexpr cuuint32_t kRank = 2;

CUresult encodeInterleaved(CUtensorMap* map, void* tensor) {
  cuuint64_t dims[kRank] = {16, 4};
  cuuint64_t strides[kRank - 1] = {32};
  cuuint32_t box[kRank] = {16, 4};
  cuuint32_t elementStrides[kRank] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, kRank, tensor, dims, strides, box,  // expect: TMA001 at "kRank, tensor"
                                elementStrides, CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// nvcc-flags: -arch=sm_90a
// TMA007 (a warning): a 32-byte interleave with the 64-byte swizzle; the documentation requires SWIZZLE_32B.
// driver 580.159.04 (H200): INTERLEAVE_32B + SWIZZLE_64B (rank 3) → CUDA_SUCCESS, accepted against the
// documentation (driver-verdicts.txt), hence a warning.
#include <cuda.h>

CUresult encodeNC16HWC16(CUtensorMap* map, void* tensor) {
  cuuint64_t dims[3] = {16, 4, 4};
  cuuint64_t strides[2] = {32, 128};
  cuuint32_t box[3] = {16, 4, 4};
  cuuint32_t elementStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, tensor, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_32B,
                                CU_TENSOR_MAP_SWIZZLE_64B,  // expect: TMA007
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

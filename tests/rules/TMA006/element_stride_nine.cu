// nvcc-flags: -arch=sm_90a
// TMA006: every 9th row; element strides are 1 to 8. The call is the argument of a checking macro.
// driver 580.159.04 (H200): elementStrides[1] = 9 → CUDA_ERROR_INVALID_VALUE (driver-verdicts.txt).
#include <cuda.h>

#define CU_CHECK(call)                        \
  do {                                        \
    CUresult status_ = (call);                \
    if (status_ != CUDA_SUCCESS) return status_; \
  } while (0)

CUresult encodeStrided(CUtensorMap* map, void* image) {
  cuuint64_t dims[2] = {256, 1024};
  cuuint64_t strides[1] = {256};
  cuuint32_t box[2] = {64, 72};
  cuuint32_t elementStrides[2] = {1, 9};  // expect: TMA006
  CU_CHECK(cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, image, dims, strides, box, elementStrides,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  return CUDA_SUCCESS;
}

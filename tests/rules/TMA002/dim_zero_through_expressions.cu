// nvcc-flags: -arch=sm_90a
// TMA002: a zero dimension computed from another array's element (`shape[1] / kSplit` with more
// splits than rows), passed as `&dims[0]`; C-style casts and an array element in an expression.
// driver 580.159.04 (H200): globalDim[0] = 0 → CUDA_ERROR_INVALID_VALUE (driver-verdicts.txt).
#include <cuda.h>

static const cuuint64_t shape[2] = {(cuuint64_t)512, 8};
static const int kSplit = 16;

CUresult encodeSplit(CUtensorMap* map, void* tensor) {
  const cuuint64_t dims[2] = {shape[0],
                              shape[1] / kSplit};  // expect: TMA002
  const cuuint64_t strides[1] = {shape[0] * sizeof(float)};
  const cuuint32_t box[2] = {(cuuint32_t)32, 8};
  const cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, tensor, &dims[0], &strides[0], box,
                                elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

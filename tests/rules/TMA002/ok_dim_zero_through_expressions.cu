// nvcc-flags: -arch=sm_90a
// Twin of dim_zero_through_expressions.cu: as many splits as rows, one row each.
// driver 580.159.04 (H200): globalDim[0] = 1 → CUDA_SUCCESS (driver-verdicts.txt).
#include <cuda.h>

static const cuuint64_t shape[2] = {(cuuint64_t)512, 8};
static const int kSplit = 8;

CUresult encodeSplit(CUtensorMap* map, void* tensor) {
  const cuuint64_t dims[2] = {shape[0],
                              shape[1] / kSplit};
  const cuuint64_t strides[1] = {shape[0] * sizeof(float)};
  const cuuint32_t box[2] = {(cuuint32_t)32, 8};
  const cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, tensor, &dims[0], &strides[0], box,
                                elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

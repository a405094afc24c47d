// nvcc-flags: -arch=sm_90a
// TMA002: the row count of a GEMM operand left at zero (a constant that was never set).
// driver 580.159.04 (H200): globalDim[0] = 0 → CUDA_ERROR_INVALID_VALUE (driver-verdicts.txt; this
// case's zero is globalDim[1], tiled.dim1_zero pending a run).
#include <cuda.h>
#include <cuda_bf16.h>

constexpr cuuint64_t kK = 4096;
constexpr cuuint64_t kM = 0;

CUresult encodeA(CUtensorMap* map, __nv_bfloat16* a) {
  cuuint64_t dims[2] = {kK,
                        kM};  // expect: TMA002
  cuuint64_t strides[1] = {kK * sizeof(__nv_bfloat16)};
  cuuint32_t box[2] = {64, 128};
  cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

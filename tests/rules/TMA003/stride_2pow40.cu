// nvcc-flags: -arch=sm_90a
// TMA003: a stride of 2^40 bytes; strides must stay below 2^40.
// driver 580.159.04 (H200): globalStrides[0] = 2^40 → CUDA_ERROR_INVALID_VALUE (driver-verdicts.txt).
#include <cuda.h>

CUresult encodeSparse(CUtensorMap* map, void* base) {
  static constexpr cuuint64_t kStride = cuuint64_t{1} << 40;
  cuuint64_t dims[2] = {256, 4};
  cuuint64_t strides[1] = {kStride};  // expect: TMA003
  cuuint32_t box[2] = {16, 4};
  cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, base, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

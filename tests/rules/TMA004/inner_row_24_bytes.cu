// nvcc-flags: -arch=sm_90a
// TMA004: a box row of 6 floats is 24 bytes; without interleave it must be a multiple of 16.
// driver 580.159.04 (H200): a 24-byte inner box row → CUDA_ERROR_INVALID_VALUE (driver-verdicts.txt).
#include <cuda.h>

#include <array>

CUresult encodeStencil(CUtensorMap* map, float* field) {
  std::array<cuuint64_t, 2> dims{1024, 1024};
  std::array<cuuint64_t, 1> strides{1024 * sizeof(float)};
  std::array<cuuint32_t, 2> box{6, 6};  // expect: TMA004
  std::array<cuuint32_t, 2> elementStrides{1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, field, dims.data(), strides.data(),
                                box.data(), elementStrides.data(), CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

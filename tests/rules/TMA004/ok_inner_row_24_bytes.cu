// nvcc-flags: -arch=sm_90a
// Twin of inner_row_24_bytes.cu: a row of 8 floats, 32 bytes (the kernel uses the first 6).
// driver: not yet run (driver-verdicts.txt: tiled.box0_fp32_8_32B pending).
#include <cuda.h>

#include <array>

CUresult encodeStencil(CUtensorMap* map, float* field) {
  std::array<cuuint64_t, 2> dims{1024, 1024};
  std::array<cuuint64_t, 1> strides{1024 * sizeof(float)};
  std::array<cuuint32_t, 2> box{8, 6};
  std::array<cuuint32_t, 2> elementStrides{1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, field, dims.data(), strides.data(),
                                box.data(), elementStrides.data(), CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

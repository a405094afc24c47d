// nvcc-flags: -arch=sm_90a
// TMA008: a fixed device address 8 bytes past a 16-byte boundary (a mapped window at a known address).
// driver 580.159.04 (H200): an 8-byte-aligned globalAddress → CUDA_ERROR_INVALID_VALUE (driver-verdicts.txt).
#include <cuda.h>

constexpr unsigned long long kWindow = 0x7f0000000000ull;

CUresult encodeWindow(CUtensorMap* map) {
  cuuint64_t dims[2] = {256, 64};
  cuuint64_t strides[1] = {256};
  cuuint32_t box[2] = {16, 4};
  cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2,
                                reinterpret_cast<void*>(kWindow + 8),  // expect: TMA008
                                dims, strides, box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// nvcc-flags: -arch=sm_90a
// Twin of address_8_aligned.cu: 16 bytes past the boundary.
// driver 580.159.04 (H200): a 16-byte-aligned globalAddress → CUDA_SUCCESS (driver-verdicts.txt).
#include <cuda.h>

constexpr unsigned long long kWindow = 0x7f0000000000ull;

CUresult encodeWindow(CUtensorMap* map) {
  cuuint64_t dims[2] = {256, 64};
  cuuint64_t strides[1] = {256};
  cuuint32_t box[2] = {16, 4};
  cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2,
                                reinterpret_cast<void*>(kWindow + 16),
                                dims, strides, box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// nvcc-flags: -arch=sm_90a
// TMA005: a tile sized for halves (32 elements = 64 bytes) used with float data: 128 bytes under the
// 64-byte swizzle. The tile comes through a PFN_ function pointer, as the Programming Guide obtains it.
// driver 580.159.04 (H200): SWIZZLE_64B with a 128-byte inner row → CUDA_ERROR_INVALID_VALUE (driver-verdicts.txt).
#include <cuda.h>
#include <cudaTypedefs.h>

enum { kTile = 32 };

CUresult encodeWithEntryPoint(void* entryPoint, CUtensorMap* map, float* data) {
  auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(entryPoint);
  const cuuint64_t dims[2] = {4096, 4096};
  const cuuint64_t strides[1] = {4096 * sizeof(float)};
  const cuuint32_t box[2] = {kTile, kTile};  // expect: TMA005
  const cuuint32_t elementStrides[2] = {1, 1};
  return encode(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, data, dims, strides, box, elementStrides,
                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// nvcc-flags: -arch=sm_90a
// Twin of bf16_box_256_bytes.cu: a 64-element (128-byte) K box; the kernel issues two copies per K tile.
// driver 580.159.04 (H200): SWIZZLE_128B with a 128-byte inner row encodes (driver-verdicts.txt).
#include <cuda.h>
#include <cuda_bf16.h>

struct GemmConfig {
  static constexpr int kBlockM = 128;
  static constexpr int kBlockK = 128;
  static constexpr int kSwizzleElements = 128 / sizeof(__nv_bfloat16);

  static CUresult encodeA(CUtensorMap* map, __nv_bfloat16* a, cuuint64_t m, cuuint64_t k) {
    cuuint64_t dims[2] = {k, m};
    cuuint64_t strides[1] = {k * sizeof(__nv_bfloat16)};
    cuuint32_t box[2] = {kSwizzleElements, kBlockM};
    cuuint32_t elementStrides[2] = {1, 1};
    return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, dims, strides, box, elementStrides,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                  CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  }
};

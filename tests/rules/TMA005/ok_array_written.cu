// nvcc-flags: -arch=sm_90a
// A non-const array the code writes before the call, or after it in a loop, no longer holds its
// initializer: the box below is 64 wide whenever it is encoded, so nothing is reported. A const
// array or constants of a closed block are not what the call sees either.
// driver: no verdict needed; the values are unknown here.
#include <cuda.h>
#include <cuda_bf16.h>

CUresult encodeNarrowed(CUtensorMap* map, __nv_bfloat16* a) {
  cuuint64_t dims[2] = {4096, 4096};
  cuuint64_t strides[1] = {4096 * sizeof(__nv_bfloat16)};
  cuuint32_t box[2] = {128, 64};
  box[0] = 64;
  cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

CUresult encodeInLoop(CUtensorMap* maps, __nv_bfloat16* a) {
  cuuint64_t dims[2] = {4096, 4096};
  cuuint64_t strides[1] = {4096 * sizeof(__nv_bfloat16)};
  cuuint32_t box[2] = {32, 64};
  cuuint32_t elementStrides[2] = {1, 1};
  CUresult result = CUDA_SUCCESS;
  for (int i = 0; i < 2; ++i) {
    result = cuTensorMapEncodeTiled(&maps[i], CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, dims, strides, box,
                                    elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                    CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    box[0] *= 2;  // 32, then 64: never wider than the span when encoded.
  }
  return result;
}

CUresult encodeAfterBlock(CUtensorMap* map, __nv_bfloat16* a, cuuint32_t width) {
  {
    constexpr cuuint32_t width = 128;  // Closed before the call: not the width it passes.
    (void)width;
  }
  cuuint64_t dims[2] = {4096, 4096};
  cuuint64_t strides[1] = {4096 * sizeof(__nv_bfloat16)};
  cuuint32_t box[2] = {width, 64};
  cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

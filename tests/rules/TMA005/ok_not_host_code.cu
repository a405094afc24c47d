// nvcc-flags: -arch=sm_90a
// Calls the host compilation never sees are not checked: one under `#if 0` and one inside a macro
// that is never expanded. Each would be a TMA005 error (a 256-byte bf16 row under the 128-byte swizzle).
// driver: no verdict needed; the host never runs these.
#include <cuda.h>
#include <cuda_bf16.h>

#if 0
CUresult encodeDisabled(CUtensorMap* map, __nv_bfloat16* a) {
  cuuint64_t dims[2] = {4096, 4096};
  cuuint64_t strides[1] = {8192};
  cuuint32_t box[2] = {128, 64};
  cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
#endif

#define ENCODE_WIDE(map, a, dims, strides)                                                                    \
  do {                                                                                                        \
    cuuint32_t box[2] = {128, 64};                                                                            \
    cuuint32_t elementStrides[2] = {1, 1};                                                                    \
    cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, dims, strides, box, elementStrides,   \
                           CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,                         \
                           CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);               \
  } while (0)

// nvcc-flags: -arch=sm_90a
// What the file does not show stays unchecked: names that hide the namespace constant kBlockK
// (128) — a template parameter, a function parameter, a structured binding, and class members the
// backward lookup cannot see (a member function defined outside its class, a base class's member,
// a member declared after its use) — and a swizzle mode chosen at run time. Each call would be a
// TMA005 error with the namespace's 128 (a 256-byte bf16 row under the 128-byte swizzle).
// driver: no verdict needed; the values are unknown here.
#include <cuda.h>
#include <cuda_bf16.h>

constexpr int kBlockK = 128;

template <int kBlockK>
CUresult encodeTemplated(CUtensorMap* map, __nv_bfloat16* a) {
  cuuint64_t dims[2] = {4096, 4096};
  cuuint64_t strides[1] = {4096 * sizeof(__nv_bfloat16)};
  cuuint32_t box[2] = {kBlockK, 64};
  cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

CUresult encodeShadowed(CUtensorMap* map, __nv_bfloat16* a, cuuint32_t kBlockK) {
  cuuint64_t dims[2] = {4096, 4096};
  cuuint64_t strides[1] = {4096 * sizeof(__nv_bfloat16)};
  cuuint32_t box[2] = {kBlockK, 64};
  cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

CUresult encodeRuntimeSwizzle(CUtensorMap* map, __nv_bfloat16* a, CUtensorMapSwizzle swizzle) {
  cuuint64_t dims[2] = {4096, 4096};
  cuuint64_t strides[1] = {4096 * sizeof(__nv_bfloat16)};
  cuuint32_t box[2] = {kBlockK, 64};
  cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

#define ENCODE_BODY                                                                                          \
  cuuint64_t dims[2] = {4096, 4096};                                                                         \
  cuuint64_t strides[1] = {4096 * sizeof(__nv_bfloat16)};                                                    \
  cuuint32_t elementStrides[2] = {1, 1};

struct Shape {
  cuuint32_t width, height;
};

CUresult encodeBound(CUtensorMap* map, __nv_bfloat16* a, Shape shape) {
  auto [kBlockK, rows] = shape;
  ENCODE_BODY
  cuuint32_t box[2] = {kBlockK, rows};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

struct OutOfClass {
  static constexpr cuuint32_t kBlockK = 64;
  static CUresult encode(CUtensorMap* map, __nv_bfloat16* a);
};

CUresult OutOfClass::encode(CUtensorMap* map, __nv_bfloat16* a) {
  ENCODE_BODY
  cuuint32_t box[2] = {kBlockK, 64};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, dims, strides, box, elementStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

struct TileBase {
  static constexpr cuuint32_t kBlockK = 64;
};

struct Derived : TileBase {
  static CUresult encode(CUtensorMap* map, __nv_bfloat16* a) {
    ENCODE_BODY
    cuuint32_t box[2] = {kBlockK, 64};
    return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, dims, strides, box, elementStrides,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  }
};

struct DeclaredLater {
  static CUresult encode(CUtensorMap* map, __nv_bfloat16* a) {
    ENCODE_BODY
    cuuint32_t box[2] = {kBlockK, 64};
    return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, dims, strides, box, elementStrides,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  }
  static constexpr cuuint32_t kBlockK = 64;
};

CUresult encodeAll(CUtensorMap* maps, __nv_bfloat16* a) {
  encodeTemplated<64>(&maps[0], a);
  encodeShadowed(&maps[1], a, 64);
  return encodeRuntimeSwizzle(&maps[2], a, CU_TENSOR_MAP_SWIZZLE_NONE);
}

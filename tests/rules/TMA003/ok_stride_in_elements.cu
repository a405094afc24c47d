// nvcc-flags: -arch=sm_90a
// Twin of stride_in_elements.cu: the stride in bytes, 2000 (a multiple of 16).
// driver 580.159.04 (H200): strides that are multiples of 16 encode (driver-verdicts.txt: tiled.stride_2064 pending).
#include <cuda.h>
#include <cuda_fp16.h>

CUresult encodeRows(CUtensorMap* map, __half* matrix) {
  const int kCols = 1000, kRows = 512;
  cuuint64_t dims[2] = {kCols, kRows};
  cuuint64_t strides[1] = {kCols * sizeof(__half)};
  cuuint32_t box[2] = {64, 64};
  cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, matrix, dims, strides, box,
                                elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

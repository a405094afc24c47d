// nvcc-flags: -arch=sm_90a
// Twin of im2col_rank_two.cu: the activations as NWC, rank 3.
// driver: not yet run (driver-verdicts.txt: im2col.rank3 pending).
#include <cuda.h>

CUresult encodeIm2col(CUtensorMap* map, void* activations) {
  cuuint64_t dims[3] = {64, 32, 2};
  cuuint64_t strides[2] = {128, 128 * 32};
  int lower[1] = {-1};
  int upper[1] = {-1};
  cuuint32_t elementStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeIm2col(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 3, activations, dims, strides, lower,
                                 upper, 64, 32, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                 CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

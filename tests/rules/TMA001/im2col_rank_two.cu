// nvcc-flags: -arch=sm_90a
// TMA001 (a warning): an im2col tensor map of rank 2; the documentation allows 3 to 5 (NWC to NDHWC).
// driver: not yet run (driver-verdicts.txt: im2col.rank2 pending); the documentation forbids it.
#include <cuda.h>

CUresult encodeIm2col(CUtensorMap* map, void* activations) {
  cuuint64_t dims[2] = {64, 32};
  cuuint64_t strides[1] = {128};
  int lower[1] = {-1};
  int upper[1] = {-1};
  cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeIm2col(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, activations, dims, strides, lower,  // expect: TMA001
                                 upper, 64, 32, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                 CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMA007 tensor-map-interleave-swizzle
//
// What it does: reports a tensor map with CU_TENSOR_MAP_INTERLEAVE_32B and a swizzle mode other
// than CU_TENSOR_MAP_SWIZZLE_32B, and one of CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B with any
// interleave.
//
// Why is this bad: the driver API documentation requires SWIZZLE_32B with a 32-byte interleave
// (NC/16HWC16 layouts) and no interleave for the 6-bit packed type. Driver 580 on an H200
// nevertheless accepted INTERLEAVE_32B with SWIZZLE_64B, so this is a warning: the map's layout
// is outside what the documentation describes, and another driver may reject it.
//
// Example:
//     ... CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_128B, ...
//
// Use instead:
//     ... CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B, ...
//
// Fix: use CU_TENSOR_MAP_SWIZZLE_32B with CU_TENSOR_MAP_INTERLEAVE_32B, or no interleave (the
// layout with a swizzle span of your choice).
//
// References: CUDA Driver API, cuTensorMapEncodeTiled (interleave, swizzle).
#include "host_api/HostCallContext.h"

namespace ptx {

void checkTensorMapInterleaveSwizzle(const HostCallContext& context) {
  using namespace tensor_map;
  for (const TensorMapCall& call : context.calls) {
    if (!call.interleave.value) continue;
    std::int64_t interleave = *call.interleave.value;
    if (interleave == kInterleave32B && call.swizzle.value && *call.swizzle.value != kSwizzle32B) {
      std::int64_t swizzle = *call.swizzle.value;
      std::vector<RelatedInformation> related{{call.interleave.range, "the 32-byte interleave"}};
      if (call.encoder == TensorMapEncoder::Tiled && swizzle == kSwizzle64B) {
        context.report("TMA007", call, call.swizzle.range,
                       concat({swizzleName(swizzle),
                               " with CU_TENSOR_MAP_INTERLEAVE_32B: the CUDA driver API "
                               "documentation requires CU_TENSOR_MAP_SWIZZLE_32B (driver 580 accepts it; another "
                               "driver may return CUDA_ERROR_INVALID_VALUE)"}),
                       DriverVerdict::Accepted, related);
      } else {
        context.report("TMA007", call, call.swizzle.range,
                       concat({swizzleName(swizzle),
                               " with CU_TENSOR_MAP_INTERLEAVE_32B, which requires CU_TENSOR_MAP_SWIZZLE_32B"}),
                       DriverVerdict::Documented, related);
      }
    }
    if (interleave != kInterleaveNone && call.dataType.value && *call.dataType.value == kDataType16U6Align16B) {
      context.report("TMA007", call, call.interleave.range,
                     concat({interleaveName(interleave),
                             " with CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B, which requires "
                             "CU_TENSOR_MAP_INTERLEAVE_NONE"}),
                     DriverVerdict::Documented, {{call.dataType.range, "the packed data type"}});
    }
  }
}

}  // namespace ptx

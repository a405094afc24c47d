// TMA005 tensor-map-swizzle-span
//
// What it does: reports a tensor map that swizzles (CU_TENSOR_MAP_SWIZZLE_32B, 64B, 128B or a
// 128B_ATOM mode) without interleave and whose inner box dimension in bytes — boxDim[0], or
// channelsPerPixel for im2col, times the element size — is wider than the swizzle span: 32,
// 64 or 128 bytes.
//
// Why is this bad: a swizzle permutes 16-byte chunks inside one span; the inner row of the box
// must fit in it. The driver returns CUDA_ERROR_INVALID_VALUE: driver 580 on an H200 rejected a
// 256-byte row with SWIZZLE_128B, 128 bytes with SWIZZLE_64B and 64 bytes with SWIZZLE_32B
// (errors). The 128B_ATOM modes and im2col maps are checked from the documentation only
// (warnings). The usual cause is a tile sized for one type and then used with a wider one
// (64 floats where 64 halves fit), or the K tile of a GEMM that outgrew the swizzle.
//
// Example:
//     cuuint32_t box[2] = {128, 64};  // 128 bf16 = 256 bytes
//     ... CU_TENSOR_MAP_SWIZZLE_128B ...
//
// Use instead:
//     cuuint32_t box[2] = {64, 64};   // 128 bytes; load the other half with a second copy
//
// Fix: narrow the box's inner dimension to the span (span / element size elements) and issue
// one copy per span, or pick a wider swizzle mode.
//
// References: CUDA Driver API, cuTensorMapEncodeTiled (swizzle); CUDA Programming Guide
// §7.29.3.2 (swizzle requirements: inner box dimension ≤ swizzle width).
#include "host_api/HostCallContext.h"

namespace ptx {

void checkTensorMapSwizzleSpan(const HostCallContext& context) {
  using namespace tensor_map;
  for (const TensorMapCall& call : context.calls) {
    if (!call.interleave.value || *call.interleave.value != kInterleaveNone) continue;
    if (!call.swizzle.value || *call.swizzle.value <= kSwizzleNone || *call.swizzle.value > kSwizzle128BAtom64B)
      continue;
    std::optional<std::int64_t> bytes = call.elementBytes();
    if (!bytes) continue;
    bool tiled = call.encoder == TensorMapEncoder::Tiled;
    const ArgumentValue* inner =
        tiled ? call.boxDim.at(0) : (call.channelsPerPixel.value ? &call.channelsPerPixel : nullptr);
    // Out-of-range boxes are TMA004's.
    if (!inner || *inner->value <= 0 || *inner->value > 256) continue;
    std::int64_t swizzle = *call.swizzle.value;
    std::int64_t span = swizzle == kSwizzle32B ? 32 : swizzle == kSwizzle64B ? 64 : 128;
    std::int64_t rowBytes = *inner->value * *bytes;
    if (rowBytes <= span) continue;
    std::vector<RelatedInformation> related{{call.swizzle.range, "the swizzle mode"}};
    if (tiled) related.push_back(passedAs(call.boxDim, "boxDim", call));
    context.report("TMA005", call, inner->range,
                   concat({"the box's inner dimension is ", std::to_string(rowBytes), " bytes (",
                           tiled ? "boxDim[0]" : "channelsPerPixel", " = ", std::to_string(*inner->value),
                           " elements of ", std::to_string(*bytes), " bytes), wider than the ", std::to_string(span),
                           "-byte span of ", swizzleName(swizzle)}),
                   tiled && swizzle <= kSwizzle128B ? DriverVerdict::Fails : DriverVerdict::Documented, related);
  }
}

}  // namespace ptx

// TMA004 tensor-map-box-size
//
// What it does: reports a tiled tensor map's boxDim entry (the first tensorRank entries of an
// array the file initializes with constants) that is 0 or larger than 256, and a box whose
// inner row, boxDim[0] times the element size, is not a multiple of 16 bytes when the layout
// is not interleaved. For an im2col map it reports a channelsPerPixel above 256 and a
// pixelsPerColumn above 1024.
//
// Why is this bad: the box is the tile one TMA copy moves into shared memory; the hardware
// moves at most 256 elements per dimension and whole 16-byte chunks per row. The driver
// returns CUDA_ERROR_INVALID_VALUE: driver 580 on an H200 rejected boxDim entries of 0 and 257
// and a 24-byte inner row (errors). The im2col limits are the documentation's only, so they
// are warnings.
//
// Example:
//     cuuint32_t box[2] = {6, 64};   // 6 floats: a 24-byte row
//
// Use instead:
//     cuuint32_t box[2] = {8, 64};   // 32 bytes
//
// Fix: keep each box dimension in 1..256 and make the inner row a multiple of 16 bytes; copy
// a larger tile with several TMA copies.
//
// References: CUDA Driver API, cuTensorMapEncodeTiled (boxDim), cuTensorMapEncodeIm2col
// (channelsPerPixel, pixelsPerColumn); CUDA Programming Guide §7.29.2.
#include "host_api/HostCallContext.h"

namespace ptx {

void checkTensorMapBoxSize(const HostCallContext& context) {
  using namespace tensor_map;
  for (const TensorMapCall& call : context.calls) {
    if (call.encoder == TensorMapEncoder::Im2col) {
      if (call.channelsPerPixel.value && *call.channelsPerPixel.value > 256)
        context.report(
            "TMA004", call, call.channelsPerPixel.range,
            concat({"channelsPerPixel is ", std::to_string(*call.channelsPerPixel.value), ", more than 256"}),
            DriverVerdict::Documented);
      if (call.pixelsPerColumn.value && *call.pixelsPerColumn.value > 1024)
        context.report("TMA004", call, call.pixelsPerColumn.range,
                       concat({"pixelsPerColumn is ", std::to_string(*call.pixelsPerColumn.value), ", more than 1024"}),
                       DriverVerdict::Documented);
      continue;
    }
    std::vector<RelatedInformation> related{passedAs(call.boxDim, "boxDim", call)};
    for (std::size_t i = 0; i < call.dimensionsRead(); ++i) {
      const ArgumentValue* box = call.boxDim.at(i);
      if (!box) continue;
      std::string entry = concat({"boxDim[", std::to_string(i), "] is ", std::to_string(*box->value)});
      if (*box->value == 0) {
        context.report("TMA004", call, box->range, concat({entry, "; a box holds at least one element per dimension"}),
                       DriverVerdict::Fails, related);
      } else if (*box->value > 256) {
        context.report("TMA004", call, box->range, concat({entry, ", more than 256"}), DriverVerdict::Fails, related);
      }
    }
    const ArgumentValue* inner = call.boxDim.at(0);
    std::optional<std::int64_t> bytes = call.elementBytes();
    if (!inner || !bytes || *inner->value == 0 || *inner->value > 256) continue;
    if (!call.interleave.value || *call.interleave.value != kInterleaveNone) continue;
    std::int64_t rowBytes = *inner->value * *bytes;
    if (rowBytes % 16 == 0) continue;
    related.push_back({call.dataType.range, "the element type"});
    context.report("TMA004", call, inner->range,
                   concat({"the box's inner row is ", std::to_string(rowBytes), " bytes (boxDim[0] = ",
                           std::to_string(*inner->value), " elements of ", std::to_string(*bytes), " bytes, ",
                           dataTypeName(*call.dataType.value), "), not a multiple of 16"}),
                   DriverVerdict::Fails, related);
  }
}

}  // namespace ptx

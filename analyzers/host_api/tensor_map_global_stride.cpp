// TMA003 tensor-map-global-stride
//
// What it does: reports an entry of a tensor map's globalStrides array, initialized with
// constants in the file and read by the call (the first tensorRank - 1 entries), that is not a
// multiple of 16 bytes, not below 2^40, or — with CU_TENSOR_MAP_INTERLEAVE_32B or the
// 16U4_ALIGN16B/16U6_ALIGN16B types — not a multiple of 32 bytes.
//
// Why is this bad: strides are byte distances between rows, and TMA needs each row to start on
// a 16-byte boundary. The driver returns CUDA_ERROR_INVALID_VALUE: driver 580 on an H200
// rejected a stride of 200 bytes and one of 2^40 (errors). The 32-byte rule is the
// documentation's only, so it is a warning. A common cause is a stride in elements instead of
// bytes, or a row of an odd number of elements (a 4×3 int matrix needs rows padded to 16 bytes).
//
// Example:
//     cuuint64_t strides[1] = {K};                  // elements, not bytes
//
// Use instead:
//     cuuint64_t strides[1] = {K * sizeof(__half)};  // and pad K so this is a multiple of 16
//
// Fix: give strides in bytes and pad each row to a multiple of 16 bytes (32 when interleaved
// by 32 bytes).
//
// References: CUDA Driver API, cuTensorMapEncodeTiled (globalStrides); CUDA Programming Guide
// §7.29.2 (alignment of multi-dimensional copies).
#include "host_api/HostCallContext.h"

namespace ptx {

void checkTensorMapGlobalStride(const HostCallContext& context) {
  using namespace tensor_map;
  constexpr std::int64_t kLimit = std::int64_t{1} << 40;
  for (const TensorMapCall& call : context.calls) {
    bool tiled = call.encoder == TensorMapEncoder::Tiled;
    for (std::size_t i = 0; i < call.stridesRead(); ++i) {
      const ArgumentValue* stride = call.globalStrides.at(i);
      if (!stride) continue;
      std::int64_t bytes = *stride->value;
      std::string entry = concat({"globalStrides[", std::to_string(i), "] is ", std::to_string(bytes), " bytes"});
      std::vector<RelatedInformation> related{passedAs(call.globalStrides, "globalStrides", call)};
      if (bytes % 16 != 0) {
        context.report("TMA003", call, stride->range, concat({entry, ", not a multiple of 16"}),
                       tiled ? DriverVerdict::Fails : DriverVerdict::Documented, related);
      } else if (bytes >= kLimit) {
        context.report("TMA003", call, stride->range, concat({entry, ", not less than 2^40"}),
                       tiled ? DriverVerdict::Fails : DriverVerdict::Documented, related);
      } else if (bytes % 32 != 0 && call.interleave.value && *call.interleave.value == kInterleave32B) {
        related.push_back({call.interleave.range, "the 32-byte interleave"});
        context.report("TMA003", call, stride->range,
                       concat({entry, ", not a multiple of 32 as CU_TENSOR_MAP_INTERLEAVE_32B needs"}),
                       DriverVerdict::Documented, related);
      } else if (bytes % 32 != 0 && call.dataType.value &&
                 (*call.dataType.value == kDataType16U4Align16B || *call.dataType.value == kDataType16U6Align16B)) {
        related.push_back({call.dataType.range, "the packed data type"});
        context.report("TMA003", call, stride->range,
                       concat({entry, ", not a multiple of 32 as ", dataTypeName(*call.dataType.value), " needs"}),
                       DriverVerdict::Documented, related);
      }
    }
  }
}

}  // namespace ptx

// TMA008 tensor-map-global-address
//
// What it does: reports a tensor map whose globalAddress is a constant the file shows (an
// integer cast to a pointer) that is not 16-byte aligned, or not 32-byte aligned with
// CU_TENSOR_MAP_INTERLEAVE_32B or the 16U4_ALIGN16B/16U6_ALIGN16B types.
//
// Why is this bad: TMA reads global memory in 16-byte chunks from the map's base address. The
// driver returns CUDA_ERROR_INVALID_VALUE: driver 580 on an H200 rejected an 8-byte-aligned
// address (an error); the 32-byte rule is the documentation's only (a warning). Swizzled maps
// should start 128-byte aligned for the Programming Guide's index math, but the driver accepts
// 16 bytes, so that is not reported.
//
// Example:
//     cuTensorMapEncodeTiled(&map, type, 2, reinterpret_cast<void*>(0x7f0000001008), ...);
//
// Use instead:
//     a base address from cudaMalloc (256-byte aligned), offset by multiples of 16 bytes.
//
// Fix: align the tensor's base to 16 bytes (32 when interleaved by 32 bytes).
//
// References: CUDA Driver API, cuTensorMapEncodeTiled (globalAddress); CUDA Programming Guide
// §7.29.2 (alignment of multi-dimensional copies).
#include <cstdio>

#include "host_api/HostCallContext.h"

namespace ptx {

void checkTensorMapGlobalAddress(const HostCallContext& context) {
  using namespace tensor_map;
  for (const TensorMapCall& call : context.calls) {
    if (!call.globalAddress.value || *call.globalAddress.value <= 0) continue;
    std::int64_t address = *call.globalAddress.value;
    char spelled[32];
    std::snprintf(spelled, sizeof spelled, "0x%llx", static_cast<unsigned long long>(address));
    bool tiled = call.encoder == TensorMapEncoder::Tiled;
    if (address % 16 != 0) {
      context.report("TMA008", call, call.globalAddress.range,
                     concat({"globalAddress ", spelled, " is not 16-byte aligned"}),
                     tiled ? DriverVerdict::Fails : DriverVerdict::Documented);
      continue;
    }
    if (address % 32 == 0) continue;
    if (call.interleave.value && *call.interleave.value == kInterleave32B) {
      context.report(
          "TMA008", call, call.globalAddress.range,
          concat({"globalAddress ", spelled, " is not 32-byte aligned, as CU_TENSOR_MAP_INTERLEAVE_32B needs"}),
          DriverVerdict::Documented, {{call.interleave.range, "the 32-byte interleave"}});
    } else if (call.dataType.value &&
               (*call.dataType.value == kDataType16U4Align16B || *call.dataType.value == kDataType16U6Align16B)) {
      context.report("TMA008", call, call.globalAddress.range,
                     concat({"globalAddress ", spelled, " is not 32-byte aligned, as ",
                             dataTypeName(*call.dataType.value), " needs"}),
                     DriverVerdict::Documented, {{call.dataType.range, "the packed data type"}});
    }
  }
}

}  // namespace ptx

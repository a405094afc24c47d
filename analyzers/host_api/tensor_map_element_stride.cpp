// TMA006 tensor-map-element-stride
//
// What it does: reports an entry of a tensor map's elementStrides array, initialized with
// constants in the file and read by the call, that is 0 or larger than 8. The first entry is
// checked only with an interleaved layout: without one the driver ignores it.
//
// Why is this bad: an element stride is the step, in elements, that the box takes along a
// dimension (2 loads every other element); the hardware supports 1 to 8. The driver returns
// CUDA_ERROR_INVALID_VALUE: driver 580 on an H200 rejected 9 (an error); 0 is forbidden by the
// documentation only (a warning).
//
// Example:
//     cuuint32_t elementStrides[2] = {1, 16};
//
// Use instead:
//     cuuint32_t elementStrides[2] = {1, 8};   // or fold the stride into globalStrides
//
// Fix: keep every element stride in 1..8; a larger step is a larger global stride.
//
// References: CUDA Driver API, cuTensorMapEncodeTiled (elementStrides); CUDA Programming Guide
// §7.29.2.
#include "host_api/HostCallContext.h"

namespace ptx {

void checkTensorMapElementStride(const HostCallContext& context) {
  using namespace tensor_map;
  for (const TensorMapCall& call : context.calls) {
    bool interleaved = call.interleave.value && *call.interleave.value != kInterleaveNone;
    bool tiled = call.encoder == TensorMapEncoder::Tiled;
    for (std::size_t i = interleaved ? 0 : 1; i < call.dimensionsRead(); ++i) {
      const ArgumentValue* stride = call.elementStrides.at(i);
      if (!stride) continue;
      std::string entry = concat({"elementStrides[", std::to_string(i), "] is ", std::to_string(*stride->value)});
      if (*stride->value == 0) {
        context.report("TMA006", call, stride->range, concat({entry, "; an element stride is 1 to 8"}),
                       DriverVerdict::Documented, {passedAs(call.elementStrides, "elementStrides", call)});
      } else if (*stride->value > 8) {
        context.report("TMA006", call, stride->range, concat({entry, ", more than 8"}),
                       tiled ? DriverVerdict::Fails : DriverVerdict::Documented,
                       {passedAs(call.elementStrides, "elementStrides", call)});
      }
    }
  }
}

}  // namespace ptx

// TMA002 tensor-map-global-dim
//
// What it does: reports an entry of a tensor map's globalDim array, initialized with constants
// in the file and read by the call (the first tensorRank entries), that is 0 or larger than
// 2^32.
//
// Why is this bad: the driver returns CUDA_ERROR_INVALID_VALUE and leaves the map unwritten.
// Driver 580 on an H200 rejected globalDim[0] = 0 (an error; a size of 1 is fine, although the
// Programming Guide's text says sizes must exceed 1); sizes above 2^32 are forbidden by the
// documentation only, so they are warnings.
//
// Example:
//     cuuint64_t dims[2] = {K, 0};  // The row count was left at zero.
//
// Use instead:
//     cuuint64_t dims[2] = {K, M};
//
// Fix: give every dimension its element count (fastest-moving first); split a dimension larger
// than 2^32 into two.
//
// References: CUDA Driver API, cuTensorMapEncodeTiled (globalDim); CUDA Programming Guide
// §7.29.2 (sizes and strides).
#include "host_api/HostCallContext.h"

namespace ptx {

void checkTensorMapGlobalDim(const HostCallContext& context) {
  constexpr std::int64_t kLargest = std::int64_t{1} << 32;
  for (const TensorMapCall& call : context.calls) {
    bool tiled = call.encoder == TensorMapEncoder::Tiled;
    for (std::size_t i = 0; i < call.dimensionsRead(); ++i) {
      const ArgumentValue* dim = call.globalDim.at(i);
      if (!dim) continue;
      std::string entry = concat({"globalDim[", std::to_string(i), "]"});
      if (*dim->value == 0) {
        context.report("TMA002", call, dim->range, concat({entry, " is 0; every dimension holds at least one element"}),
                       tiled ? DriverVerdict::Fails : DriverVerdict::Documented,
                       {passedAs(call.globalDim, "globalDim", call)});
      } else if (*dim->value > kLargest) {
        context.report("TMA002", call, dim->range,
                       concat({entry, " is ", std::to_string(*dim->value), ", more than 2^32 elements"}),
                       DriverVerdict::Documented, {passedAs(call.globalDim, "globalDim", call)});
      }
    }
  }
}

}  // namespace ptx

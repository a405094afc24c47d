// TMA010 tensor-map-im2col-corner
//
// What it does: reports an entry of an im2col tensor map's pixelBoxLowerCorner or
// pixelBoxUpperCorner array, initialized with constants in the file, that is outside the range
// the map's tensorRank allows: [-32768, 32767] at rank 3, [-128, 127] at rank 4 and [-16, 15]
// at rank 5 (the corners have rank - 2 entries: W, then H, then D).
//
// Why is this bad: the corner offsets are stored in fields of 16, 8 or 5 bits; the driver API
// documentation allows only what fits. This is a warning until a driver run confirms that the
// encode fails (tests/cuda/tensor_maps/driver-verdicts.txt).
//
// Example:
//     int lower[2] = {-200, -1};   // rank 4: offsets are 8-bit
//
// Use instead:
//     int lower[2] = {-100, -1};
//
// Fix: keep the corner offsets in range, or split the convolution's padding so each map's
// offsets fit.
//
// References: CUDA Driver API, cuTensorMapEncodeIm2col (pixelBoxLowerCorner, pixelBoxUpperCorner).
#include "host_api/HostCallContext.h"

namespace ptx {

void checkTensorMapIm2colCorner(const HostCallContext& context) {
  for (const TensorMapCall& call : context.calls) {
    if (call.encoder != TensorMapEncoder::Im2col || !call.validRank()) continue;
    std::uint32_t rank = *call.validRank();
    std::int64_t bits = rank == 3 ? 16 : rank == 4 ? 8 : 5;
    std::int64_t lowest = -(std::int64_t{1} << (bits - 1)), highest = (std::int64_t{1} << (bits - 1)) - 1;
    for (auto [corner, parameter] : {std::pair{&call.pixelBoxLowerCorner, "pixelBoxLowerCorner"},
                                     std::pair{&call.pixelBoxUpperCorner, "pixelBoxUpperCorner"}}) {
      for (std::size_t i = 0; i < call.cornersRead(); ++i) {
        const ArgumentValue* offset = corner->at(i);
        if (!offset || (*offset->value >= lowest && *offset->value <= highest)) continue;
        context.report("TMA010", call, offset->range,
                       concat({parameter, "[", std::to_string(i), "] is ", std::to_string(*offset->value),
                               "; with tensorRank ", std::to_string(rank), " each offset is in [",
                               std::to_string(lowest), ", ", std::to_string(highest), "]"}),
                       DriverVerdict::Documented, {passedAs(*corner, parameter, call)});
      }
    }
  }
}

}  // namespace ptx
